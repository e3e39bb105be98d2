package dev.shardex.cli;

import dev.shardex.directory.catalog.Replica;
import dev.shardex.directory.replica.ReplicaLag;
import dev.shardex.directory.replica.ReplicaLag.Lag;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "replicas", description = "Each shard's read replicas, with their measured lag.",
    subcommands = {ReplicasCommand.Add.class, ReplicasCommand.Remove.class, ReplicasCommand.ListReplicas.class})
final class ReplicasCommand extends CliCommand.Group {

  @Command(name = "add", description = {"Declare a read replica of a shard (its URL without a password: it uses the shard's credentials).",
      "The replica must already replicate from the shard's primary; Shardex never sets up or promotes replicas."})
  static final class Add extends CliCommand {
    @Parameters(index = "0", paramLabel = "SHARD", description = "The shard the replica copies.")
    int shard;

    @Parameters(index = "1", paramLabel = "URL", description = "The replica's JDBC URL, e.g. jdbc:mysql://db3-r1:3306/app")
    String url;

    @Option(names = "--weight", defaultValue = "1", description = "Share of the shard's replica reads (default: ${DEFAULT-VALUE}).")
    double weight;

    @Override
    public Integer call() throws Exception {
      ShardsCommand.checkUrl(this, url, "replica");
      if (weight <= 0) {
        throw usage("a replica's weight must be positive (remove a replica to stop reading from it)");
      }
      try (CliSession s = session()) {
        int id = s.store().addReplica(shard, url, weight);
        Lag lag = measure(s, new Replica(shard, id, url, weight, null));
        if (!lag.known()) {
          out().warn("warning: replica " + id + " of shard " + shard + " was added but its lag is unknown now: " + lag);
        }
        out().result(Json.obj("shard", shard, "replica", id, "url", url, "weight", weight, "lag", json(lag)),
            () -> out().line("Added replica " + id + " of shard " + shard + " (" + url + ", weight " + weight + "), lag " + lag));
      }
      return ShardexCli.OK;
    }
  }

  @Command(name = "remove", description = "Remove a replica from the catalog; drivers stop reading from it within their poll.")
  static final class Remove extends CliCommand {
    @Parameters(index = "0", paramLabel = "SHARD")
    int shard;

    @Parameters(index = "1", paramLabel = "REPLICA", description = "The replica's id within its shard, as 'list' shows it.")
    int replica;

    @Override
    public Integer call() throws Exception {
      try (CliSession s = session()) {
        s.store().removeReplica(shard, replica);
        out().result(Json.obj("shard", shard, "replica", replica, "removed", true),
            () -> out().line("Removed replica " + replica + " of shard " + shard));
      }
      return ShardexCli.OK;
    }
  }

  @Command(name = "list", description = {"List the replicas with their weight and their lag measured now.",
      "Lag is the shard primary's clock minus the heartbeat the replica holds (0 when it has applied everything); "
          + "'unknown' (stopped, no heartbeat, unreachable) is what drivers treat as unhealthy."})
  static final class ListReplicas extends CliCommand {
    @Override
    public Integer call() throws Exception {
      try (CliSession s = session()) {
        List<Replica> replicas = s.store().replicas();
        List<List<Object>> rows = new ArrayList<>();
        List<Map<String, Object>> json = new ArrayList<>();
        for (Replica r : replicas) {
          Lag lag = measure(s, r);
          rows.add(List.of(r.shardId(), r.replicaId(), r.status(), r.weight(), lag.known() ? lag.lagMs() : "unknown",
              lag.state().name(), r.url()));
          json.add(Json.obj("shard", r.shardId(), "replica", r.replicaId(), "status", r.status().name(), "weight", r.weight(),
              "url", r.url(), "lag", json(lag)));
        }
        out().result(json, () -> out().table(List.of("SHARD", "REPLICA", "STATUS", "WEIGHT", "LAG_MS", "STATE", "URL"), rows));
      }
      return ShardexCli.OK;
    }
  }

  /**
   * The replica's lag now, then a fresh heartbeat on its primary (so the next measurement, here or in
   * a driver, has one to compare); a server that cannot be reached is UNREACHABLE, not an error.
   */
  static Lag measure(CliSession s, Replica r) {
    try (Connection primary = s.shards().connect(r.shardId())) {
      Lag lag;
      try (Connection replica = s.connect(r.shardId(), r.url())) {
        lag = ReplicaLag.measure(primary, replica, r.shardId());
      } catch (SQLException e) {
        lag = Lag.unknown(ReplicaLag.State.UNREACHABLE, firstLine(e));
      }
      ReplicaLag.beat(primary, r.shardId());
      return lag;
    } catch (SQLException e) {
      return Lag.unknown(ReplicaLag.State.UNREACHABLE, "its primary: " + firstLine(e));
    }
  }

  private static String firstLine(SQLException e) {
    String m = e.getMessage() == null ? "no message" : e.getMessage();
    return m.lines().findFirst().orElse(m);
  }

  static Map<String, Object> json(Lag lag) {
    return Json.obj("state", lag.state().name(), "ms", lag.known() ? lag.lagMs() : null, "detail", lag.detail());
  }
}
