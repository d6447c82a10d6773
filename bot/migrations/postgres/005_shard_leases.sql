-- Who serves which shard: one row per shard id, held by one bot process (owner: host, pid and a random
-- word) and renewed by its heartbeat. Another process takes a shard over only once its heartbeat is stale
-- (the owner is gone), and refuses to start while a live process uses another shard count. A process that
-- runs every shard Discord recommends (no shard settings) holds shard 0 with a count of 0: all of them.
-- (In step with ../sqlite/005_shard_leases.sql.)

CREATE TABLE shard_leases (
    shard_id     BIGINT  NOT NULL PRIMARY KEY,
    shard_count  INTEGER NOT NULL,
    owner        TEXT    NOT NULL,
    heartbeat_at DOUBLE PRECISION NOT NULL
);
