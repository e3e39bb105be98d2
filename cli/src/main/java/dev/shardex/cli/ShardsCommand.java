package dev.shardex.cli;

import dev.shardex.directory.Redact;
import dev.shardex.directory.catalog.Shard;
import dev.shardex.directory.catalog.ShardStatus;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "shards", description = "The shard catalog.",
    subcommands = {ShardsCommand.Add.class, ShardsCommand.ListShards.class, ShardsCommand.SetStatus.class,
        ShardsCommand.SetWeight.class, ShardsCommand.Drain.class, ShardsCommand.Remove.class,
        ReplicasCommand.class})
final class ShardsCommand extends CliCommand.Group {

  /** A shard's or a replica's URL: a JDBC URL that holds no password (the directory never stores one). */
  static void checkUrl(CliCommand command, String url, String what) {
    if (!Redact.url(url).equals(url)) {
      throw command.usage("the " + what + " URL holds a password; the directory never stores one: drop it from the URL and give "
          + "--shard-password (or the driver's password) instead");
    }
    if (!url.startsWith("jdbc:")) {
      throw command.usage("the " + what + " URL must be a JDBC URL (jdbc:mysql://HOST:PORT/DB), not " + url);
    }
  }

  static Map<String, Object> json(Shard s) {
    return Json.obj("id", s.id(), "url", s.url(), "status", s.status().name(), "weight", s.weight(), "keys", s.keyCount());
  }

  @Command(name = "add", description = "Add (or update) a shard. The URL must not hold a password: shard credentials come from "
      + "the driver's user/password (or shard.N.user/password) and, here, from --shard-user/--shard-password.")
  static final class Add extends CliCommand {
    @Parameters(index = "0", paramLabel = "ID", description = "Shard id (an integer, stable forever).")
    int id;

    @Parameters(index = "1", paramLabel = "URL", description = "The shard's JDBC URL, e.g. jdbc:mysql://db3:3306/app")
    String url;

    @Option(names = "--weight", defaultValue = "1", description = "Share of keys relative to the others (default: ${DEFAULT-VALUE}).")
    double weight;

    @Override
    public Integer call() throws Exception {
      checkUrl(this, url, "shard");
      try (CliSession s = session()) {
        s.store().addShard(id, url, weight);
        String reachable;
        try (Connection c = s.shards().connect(id)) {
          reachable = "reachable";
        } catch (SQLException e) {
          reachable = "unreachable";
          out().warn("warning: shard " + id + " was added but cannot be reached now: " + e.getMessage());
        }
        String state = reachable;
        out().result(Json.obj("id", id, "url", url, "weight", weight, "reachable", reachable.equals("reachable")),
            () -> out().line("Added shard " + id + " (" + url + ", weight " + weight + "), " + state));
      }
      return ShardexCli.OK;
    }
  }

  @Command(name = "list", description = "List the shards with their status, weight and number of keys.")
  static final class ListShards extends CliCommand {
    @Override
    public Integer call() throws Exception {
      try (CliSession s = session()) {
        List<Shard> shards = s.store().shards();
        List<List<Object>> rows = new ArrayList<>();
        shards.forEach(x -> rows.add(List.of(x.id(), x.status(), x.weight(), x.keyCount(), x.url())));
        out().result(shards.stream().map(ShardsCommand::json).toList(),
            () -> out().table(List.of("ID", "STATUS", "WEIGHT", "KEYS", "URL"), rows));
      }
      return ShardexCli.OK;
    }
  }

  @Command(name = "set-status", description = "ONLINE takes reads and writes, READ_ONLY refuses writes, OFFLINE refuses "
      + "everything; every driver applies the change within its poll interval.")
  static final class SetStatus extends CliCommand {
    @Parameters(index = "0", paramLabel = "ID")
    int id;

    @Parameters(index = "1", paramLabel = "STATUS", description = "ONLINE, READ_ONLY or OFFLINE")
    ShardStatus status;

    @Override
    public Integer call() throws Exception {
      try (CliSession s = session()) {
        s.store().setShardStatus(id, status);
        out().result(Json.obj("id", id, "status", status.name()), () -> out().line("Shard " + id + " is now " + status));
      }
      return ShardexCli.OK;
    }
  }

  @Command(name = "set-weight", description = "Change a shard's weight (new keys and rebalance follow it; 0 drains it).")
  static final class SetWeight extends CliCommand {
    @Parameters(index = "0", paramLabel = "ID")
    int id;

    @Parameters(index = "1", paramLabel = "WEIGHT")
    double weight;

    @Override
    public Integer call() throws Exception {
      if (weight < 0) {
        throw usage("a weight cannot be negative");
      }
      try (CliSession s = session()) {
        s.store().setShardWeight(id, weight);
        out().result(Json.obj("id", id, "weight", weight), () -> out().line("Shard " + id + " now has weight " + weight));
      }
      return ShardexCli.OK;
    }
  }

  @Command(name = "drain", description = {"Move every key off a shard online, with progress.",
      "Its weight becomes 0 first, so no new key lands there; --remove then removes it from the catalog.",
      "Re-run it to pick up what a run left."})
  static final class Drain extends CliCommand {
    @Parameters(index = "0", paramLabel = "ID")
    int id;

    @Option(names = "--remove", description = "Remove the shard from the catalog once it holds no key.")
    boolean remove;

    @Mixin
    MoveFlags flags;

    @Override
    public Integer call() throws Exception {
      try (CliSession s = session(flags.poolSize())) {
        var progress = out().progress("draining shard " + id);
        var mover = new dev.shardex.directory.move.Mover(s.store(), s.shards(), flags.options(), null);
        var result = new dev.shardex.directory.move.Drainer(s.store(), mover).drain(id, flags.parallel, progress);
        boolean removed = false;
        if (remove && result.empty()) {
          s.store().removeShard(id);
          removed = true;
        }
        boolean done = removed;
        out().result(Json.obj("shard", id, "moved", result.moved(), "failed", result.failed().size(), "left", result.left(),
            "millis", result.millis(), "millisPerThousandKeys", result.millisPerThousand(), "removed", done), () -> {
              out().line("Drained shard " + id + ": " + result.moved() + " key(s) moved, " + result.failed().size()
                  + " failed, " + result.left() + " left, " + result.millis() + " ms (" + result.millisPerThousand()
                  + " ms per 1,000 keys)" + (done ? "; removed from the catalog" : ""));
              result.failed().forEach(o -> out().line("  key " + o.planned().key() + ": "
                  + (o.error() != null ? o.error().getMessage() : o.record().detail())));
            });
        return result.empty() ? ShardexCli.OK : ShardexCli.REFUSED;
      }
    }
  }

  @Command(name = "remove", description = "Remove a shard from the catalog; refused while it holds any key or SINGLE table.")
  static final class Remove extends CliCommand {
    @Parameters(index = "0", paramLabel = "ID")
    int id;

    @Override
    public Integer call() throws Exception {
      try (CliSession s = session()) {
        s.store().removeShard(id);
        out().result(Json.obj("id", id, "removed", true), () -> out().line("Removed shard " + id));
      }
      return ShardexCli.OK;
    }
  }
}
