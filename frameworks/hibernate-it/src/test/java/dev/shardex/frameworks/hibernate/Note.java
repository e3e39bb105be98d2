package dev.shardex.frameworks.hibernate;

import jakarta.persistence.EmbeddedId;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;
import org.hibernate.annotations.Comment;

/** A note, SHARDED by user_id, with an embedded composite id. */
@Entity
@Table(name = "note")
@Comment("shardex:sharded key=user_id")
public class Note {
  @EmbeddedId
  private NoteId id;
  private String body;

  protected Note() {}

  public Note(NoteId id, String body) {
    this.id = id;
    this.body = body;
  }

  public NoteId getId() {
    return id;
  }

  public String getBody() {
    return body;
  }
}
