package dev.shardex.benchmarks;

import java.sql.SQLException;
import java.util.SplittableRandom;

/** What one operation of a benchmark thread does; users are drawn uniformly. */
public enum Workload {
  POINT_SELECT("point select", true) {
    @Override
    long run(Session s, SplittableRandom r, int users, boolean fresh) throws SQLException {
      return s.pointSelect(r.nextInt(users), fresh).length();
    }
  },
  INSERT("insert", true) {
    @Override
    long run(Session s, SplittableRandom r, int users, boolean fresh) throws SQLException {
      return s.insert(r.nextInt(users), fresh);
    }
  },
  UPDATE("update by key", true) {
    @Override
    long run(Session s, SplittableRandom r, int users, boolean fresh) throws SQLException {
      return s.update(r.nextInt(users), fresh);
    }
  },
  TIMELINE("timeline (ORDER BY LIMIT 10)", true) {
    @Override
    long run(Session s, SplittableRandom r, int users, boolean fresh) throws SQLException {
      return s.timeline(r.nextInt(users), fresh).length();
    }
  },
  SCATTER_COUNT("scatter COUNT (non-key)", false) {
    @Override
    long run(Session s, SplittableRandom r, int users, boolean fresh) throws SQLException {
      return s.scatterCount(fresh);
    }
  },
  MIX("80/20 read/write", false) {
    @Override
    long run(Session s, SplittableRandom r, int users, boolean fresh) throws SQLException {
      long user = r.nextInt(users);
      return r.nextInt(10) < 8 ? s.pointSelect(user, fresh).length() : s.update(user, fresh);
    }
  };

  private final String label;
  /** Single-shard statements, the ones the ratio targets (and the fresh-prepare variant) cover. */
  private final boolean routed;

  Workload(String label, boolean routed) {
    this.label = label;
    this.routed = routed;
  }

  public String label() {
    return label;
  }

  public boolean routed() {
    return routed;
  }

  abstract long run(Session s, SplittableRandom r, int users, boolean fresh) throws SQLException;
}
