package dev.shardex.frameworks.hibernate;

import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;
import java.io.Serializable;
import java.util.Objects;

/** The embedded composite id of {@link Note}: the shard key and the note's number within its user. */
@Embeddable
public class NoteId implements Serializable {
  private static final long serialVersionUID = 1L;
  @Column(name = "user_id")
  private Long userId;
  @Column(name = "note_id")
  private Long noteId;

  protected NoteId() {}

  public NoteId(Long userId, Long noteId) {
    this.userId = userId;
    this.noteId = noteId;
  }

  public Long getUserId() {
    return userId;
  }

  public Long getNoteId() {
    return noteId;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof NoteId n && Objects.equals(userId, n.userId) && Objects.equals(noteId, n.noteId);
  }

  @Override
  public int hashCode() {
    return Objects.hash(userId, noteId);
  }
}
