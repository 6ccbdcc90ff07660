#!/usr/bin/env python3
"""Analyses an archive of packet captures on Apache Spark.

The capture files (a directory, searched recursively for .pcap/.pcapng/.cap, or a glob) are
spread over the executors; each executor runs `mediabench analyze --format jsonl` on its share
(one process per partition) and the stream records become rows. The rows are written as
Parquet partitioned by capture date (`OUTPUT/streams/capture_date=YYYY-MM-DD/…`), and a
summary (`OUTPUT/summary.json`, also printed) lists the worst calls by MOS and the loss and
jitter distributions.

Runs unchanged with `--master local[N]` or any cluster master; on a cluster the mediabench
binary and the captures must be at the same paths on every executor (a shared file system).
Usage: analyze_archive.py [--master URL] [--binary PATH] [--timeout S] INPUT OUTPUT
"""
import argparse
import glob
import json
import os
import subprocess
import sys

from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from pyspark.sql import types as T

CAPTURE_SUFFIXES = (".pcap", ".pcapng", ".cap")

# The JSON Lines schema of `mediabench analyze --format jsonl` (README, "analyze --format jsonl").
SCHEMA = T.StructType([
    T.StructField("file", T.StringType()), T.StructField("call_id", T.StringType()),
    T.StructField("ssrc", T.LongType()), T.StructField("ssrc_hex", T.StringType()),
    T.StructField("direction", T.StringType()),
    T.StructField("source_address", T.StringType()), T.StructField("source_port", T.IntegerType()),
    T.StructField("destination_address", T.StringType()), T.StructField("destination_port", T.IntegerType()),
    T.StructField("codec", T.StringType()), T.StructField("srtp_suite", T.StringType()),
    T.StructField("start_time_s", T.DoubleType()), T.StructField("capture_date", T.StringType()),
    T.StructField("duration_s", T.DoubleType()), T.StructField("packets", T.LongType()),
    T.StructField("expected", T.LongType()), T.StructField("lost", T.LongType()),
    T.StructField("loss_percent", T.DoubleType()), T.StructField("jitter_ms", T.DoubleType()),
    T.StructField("rtt_ms", T.DoubleType()), T.StructField("rtt_ms_min", T.DoubleType()),
    T.StructField("capture_rtt_ms", T.DoubleType()), T.StructField("bitrate_bps", T.DoubleType()),
    T.StructField("r_factor", T.DoubleType()), T.StructField("mos_cqe", T.DoubleType()),
    T.StructField("r_factor_network", T.DoubleType()), T.StructField("mos_cqe_network", T.DoubleType()),
    T.StructField("effective_loss_percent", T.DoubleType()), T.StructField("playout_delay_ms", T.DoubleType()),
    T.StructField("concealment_percent", T.DoubleType()), T.StructField("audio_decoded", T.BooleanType()),
    T.StructField("reason", T.StringType()), T.StructField("srtp_decrypted", T.LongType()),
    T.StructField("srtp_failures", T.LongType()), T.StructField("dtmf", T.StringType()),
])
CASTS = {T.DoubleType: float, T.LongType: int, T.IntegerType: int, T.BooleanType: bool, T.StringType: str}


def capture_files(source):
    """Every capture under the directory `source`, or matching the glob `source`, as absolute paths."""
    if os.path.isdir(source):
        found = [os.path.join(folder, name) for folder, _, names in os.walk(source) for name in names
                 if name.lower().endswith(CAPTURE_SUFFIXES)]
    else:
        found = glob.glob(source, recursive=True)
    return sorted(os.path.abspath(path) for path in found)


def row(record):
    """A tuple in SCHEMA's order; numbers cast to the column's type, missing keys as None."""
    values = []
    for field in SCHEMA.fields:
        value = record.get(field.name)
        values.append(None if value is None else CASTS[type(field.dataType)](value))
    return tuple(values)


def analyze_partition(binary, timeout):
    """The closure each executor runs: the binary's path travels with it (executors do not
    see the driver's arguments)."""
    def run(paths):
        paths = list(paths)
        if not paths:
            return
        result = subprocess.run([binary, "analyze", "--format", "jsonl", *paths], capture_output=True,
                                text=True, timeout=timeout)
        # Status 1 means a file could not be read to its end; its streams are still reported.
        if result.returncode not in (0, 1):
            raise RuntimeError(f"mediabench analyze failed ({result.returncode}): {result.stderr[-2000:]}")
        for line in result.stdout.splitlines():
            if line.strip():
                yield row(json.loads(line))
    return run


def summary(streams, worst):
    """Worst calls by MOS and the distributions of loss and jitter, as plain Python values."""
    calls = (streams.withColumn("call", F.coalesce("call_id", "file"))
             .groupBy("call").agg(F.min("mos_cqe").alias("worst_mos"), F.max("loss_percent").alias("max_loss_percent"),
                                  F.max("jitter_ms").alias("max_jitter_ms"), F.count("*").alias("streams"),
                                  F.first("file").alias("file"))
             .where(F.col("worst_mos").isNotNull()).orderBy(F.col("worst_mos").asc(), F.col("call").asc()).limit(worst))
    quantiles = [0.5, 0.9, 0.95, 0.99]
    distributions = {}
    for column in ("loss_percent", "effective_loss_percent", "jitter_ms"):
        values = streams.where(F.col(column).isNotNull()).approxQuantile(column, quantiles, 0.001)
        distributions[column] = dict(zip([f"p{int(q * 100)}" for q in quantiles], values))
    return {
        "streams": streams.count(),
        "files": streams.select("file").distinct().count(),
        "worst_calls_by_mos": [record.asDict() for record in calls.collect()],
        "distributions": distributions,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--master", default=None, help="Spark master URL (default: the environment's, else local[*])")
    parser.add_argument("--binary", default=os.environ.get("MEDIABENCH", "mediabench"),
                        help="the mediabench executable, the same path on every executor")
    parser.add_argument("--timeout", type=float, default=3600, help="seconds one partition's analysis may take")
    parser.add_argument("--files-per-partition", type=int, default=8)
    parser.add_argument("--worst", type=int, default=10, help="how many worst calls the summary lists")
    parser.add_argument("input", help="a directory of captures or a glob")
    parser.add_argument("output", help="the output directory (replaced)")
    arguments = parser.parse_args()

    files = capture_files(arguments.input)
    if not files:
        sys.exit(f"analyze_archive: no captures in {arguments.input}")
    builder = SparkSession.builder.appName("mediabench-analyze-archive")
    if arguments.master:
        builder = builder.master(arguments.master)
    elif "spark.master" not in os.environ.get("PYSPARK_SUBMIT_ARGS", ""):
        builder = builder.master("local[*]")
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("WARN")
    try:
        partitions = max(1, min(len(files), -(-len(files) // arguments.files_per_partition)))
        binary = os.path.abspath(arguments.binary) if os.path.sep in arguments.binary else arguments.binary
        rows = spark.sparkContext.parallelize(files, partitions).mapPartitions(
            analyze_partition(binary, arguments.timeout))
        streams = spark.createDataFrame(rows, SCHEMA).cache()
        streams.write.mode("overwrite").partitionBy("capture_date").parquet(os.path.join(arguments.output, "streams"))
        report = summary(streams, arguments.worst)
        report["captures"] = len(files)
        with open(os.path.join(arguments.output, "summary.json"), "w") as handle:
            json.dump(report, handle, indent=1, sort_keys=True)
        print(json.dumps(report, indent=1, sort_keys=True))
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
