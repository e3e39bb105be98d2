package dev.shardex.examples.timeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Push and pull give the same timeline pages, and both equal a brute-force timeline, page after page. */
class TimelineTest {
  static final String URL = "jdbc:shardex:sandbox:timelinetest?shards=4";

  @Test
  void pushAndPull_sameFirstAndSecondPages_asBruteForce() throws Exception {
    int users = 120;
    try (Connection c = DriverManager.getConnection(URL)) {
      Timeline t = new Timeline(c);
      t.createSchema();
      try (Statement s = c.createStatement()) {
        StringBuilder ids = new StringBuilder();
        for (int u = 1; u <= users; u++) {
          ids.append(u == 1 ? "" : ",").append(u);
        }
        for (String table : new String[] {"follows", "followers", "message", "mailbox"}) {
          s.execute("DELETE FROM " + table + " WHERE user_id IN (" + ids + ")");
        }
      }
      List<Set<Long>> follows = TimelineDemo.graph(users, 3);
      for (int u = 0; u < users; u++) {
        t.follow(u + 1, follows.get(u));
      }
      Random r = new Random(4);
      List<Timeline.Message> sent = new ArrayList<>();
      for (int i = 0; i < 1_500; i++) {
        long sender = 1 + r.nextInt(users);
        String body = "m" + i;
        sent.add(new Timeline.Message(t.submitPush(sender, body), sender, body));
      }
      for (long user = 1; user <= users; user += 7) {
        final long u = user;
        Set<Long> mine = follows.get((int) u - 1);
        List<Timeline.Message> expected = sent.stream().filter(m -> m.sender() == u || mine.contains(m.sender()))
            .sorted(Comparator.comparingLong(Timeline.Message::id).reversed()).toList();
        long before = Long.MAX_VALUE;
        for (int page = 0; page < 2; page++) {
          List<Timeline.Message> want = expected.stream().filter(m -> m.id() < Long.MAX_VALUE).skip(page * (long) Timeline.PAGE)
              .limit(Timeline.PAGE).toList();
          List<Timeline.Message> push = t.pushPage(u, before);
          List<Timeline.Message> pull = t.pullPage(u, before);
          assertEquals(want, push, "push page " + page + " of user " + u);
          assertEquals(want, pull, "pull page " + page + " of user " + u);
          assertTrue(!want.isEmpty(), "user " + u + " has a timeline");
          before = want.get(want.size() - 1).id();
        }
      }
    }
  }
}
