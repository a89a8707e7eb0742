"""The cluster rehearsal (issue 12, point 2): workers that share nothing with the launcher but an object store.

* An S3-compatible store on loopback (moto's server mode), reached through
  Beam's own S3 filesystem (`apache-beam[aws]`), holds the inputs, the outputs,
  the spill files and the temporary files.
* SDK workers come from `cdtp workers --private-disk`: a worker pool bound to
  127.0.0.1, in a private mount namespace with empty tmpfs over /work and /tmp
  (root), started the way an SDK container starts them (pipeline options from
  the provision service).
* The same build on Beam's PortableRunner with those workers gives the same
  content hash as on the DirectRunner; with a local --out the output is lost,
  and the build says so with exit 2 instead of "N pairs".

The two Beam runs on the portable runner take most of this file's ~1-2 min.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pipeline.cli import main
from tests.build_fixtures import write_cut_cache_file, write_fixture

pytestmark = [pytest.mark.slow, pytest.mark.timeout(400)]

ROOT = Path(__file__).resolve().parents[1]
BUCKET = "cdtp-rehearsal"
KEYS = {"AWS_ACCESS_KEY_ID": "rehearsal", "AWS_SECRET_ACCESS_KEY": "rehearsal"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_port(port: int, proc: subprocess.Popen, what: str, timeout: float = 60) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise RuntimeError(f"{what} did not listen on 127.0.0.1:{port} within {timeout} s")


def _stop(proc: subprocess.Popen) -> None:
    """Stop a process group this test started (the pool's workers are in it)."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _env() -> dict:
    return dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))


@pytest.fixture(scope="module")
def object_store(tmp_path_factory):
    pytest.importorskip("moto", reason="moto[server] (dev extra) is not installed")
    pytest.importorskip("boto3", reason="boto3 (aws extra) is not installed")
    port = _free_port()
    # Its request log goes to a file: a pipe nobody reads fills up and stalls the server.
    log = tmp_path_factory.mktemp("moto") / "moto.log"
    with log.open("w") as fh:
        proc = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
                                stdout=fh, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        _wait_port(port, proc, "moto server")
        import boto3

        url = f"http://127.0.0.1:{port}"
        client = boto3.client("s3", endpoint_url=url, region_name="us-east-1",
                              aws_access_key_id=KEYS["AWS_ACCESS_KEY_ID"],
                              aws_secret_access_key=KEYS["AWS_SECRET_ACCESS_KEY"])
        client.create_bucket(Bucket=BUCKET)
        yield {"url": url, "client": client,
               "args": [f"--s3_endpoint_url={url}", "--s3_region_name=us-east-1",
                        f"--s3_access_key_id={KEYS['AWS_ACCESS_KEY_ID']}",
                        f"--s3_secret_access_key={KEYS['AWS_SECRET_ACCESS_KEY']}"]}
    finally:
        _stop(proc)


def _worker_pool(tmp_path_factory, *flags: str):
    """A `cdtp workers` pool on a free loopback port: yields the port."""
    port = _free_port()
    log = tmp_path_factory.mktemp("workers") / "workers.log"
    with log.open("w") as fh:
        proc = subprocess.Popen([sys.executable, "-m", "pipeline.worker_pool", "--port", str(port), *flags],
                                stdout=fh, stderr=subprocess.STDOUT, text=True, env=_env(), start_new_session=True)
    try:
        _wait_port(port, proc, " ".join(["cdtp workers", *flags]))
        yield port
    finally:
        _stop(proc)
        print(f"worker pool log: {log}")


@pytest.fixture(scope="module")
def private_workers(tmp_path_factory):
    if sys.platform != "linux" or os.geteuid() != 0 or not shutil.which("unshare"):
        pytest.skip("the rehearsal needs root on Linux and unshare(1) for a private mount namespace")
    yield from _worker_pool(tmp_path_factory, "--private-disk")


@pytest.fixture(scope="module")
def raw_in_store(object_store, tmp_path_factory) -> dict:
    d = tmp_path_factory.mktemp("raw")
    meta = write_fixture(d / "raw-00000.jsonl", repeat=3)
    object_store["client"].upload_file(str(d / "raw-00000.jsonl"), BUCKET, "raw/raw-00000.jsonl")
    return {"local": d, "pattern": f"s3://{BUCKET}/raw/raw-*.jsonl", **meta}


def _portable(port: int) -> list[str]:
    return ["--runner=PortableRunner", "--job_endpoint=embed", "--environment_type=EXTERNAL",
            f"--environment_config=127.0.0.1:{port}"]


BUILD = ["--min-relation-count", "4", "--num-shards", "2"]


def _hash(out: str, s3_args: list[str]) -> str:
    from apache_beam.io.filesystems import FileSystems
    from apache_beam.options.pipeline_options import PipelineOptions

    from pipeline.output_check import content_hash

    FileSystems.set_options(PipelineOptions(s3_args))
    return content_hash(out)


def _stats(client, prefix: str) -> dict:
    return json.loads(client.get_object(Bucket=BUCKET, Key=f"{prefix}/stats.json")["Body"].read())


def test_pool_listens_on_loopback_only(private_workers):
    out = subprocess.run(["ss", "-ltnH", f"sport = :{private_workers}"], capture_output=True, text=True)
    if out.returncode != 0:
        pytest.skip("ss(8) is not available to list listening sockets")
    addresses = {line.split()[3].rsplit(":", 1)[0] for line in out.stdout.splitlines() if line.strip()}
    assert addresses and addresses <= {"127.0.0.1", "[::ffff:127.0.0.1]"}, addresses


def test_private_disk_workers_on_s3_give_the_direct_runners_content(object_store, private_workers, raw_in_store,
                                                                      capsys):
    s3 = object_store["args"]
    direct_out, cluster_out = f"s3://{BUCKET}/direct", f"s3://{BUCKET}/cluster"
    assert main(["build", "--input", raw_in_store["pattern"], "--out", direct_out, *BUILD,
                 "--runner=DirectRunner", *s3]) == 0
    assert main(["build", "--input", raw_in_store["pattern"], "--out", cluster_out, *BUILD,
                 *_portable(private_workers), *s3]) == 0
    printed = capsys.readouterr().out
    assert "cdtp build:" in printed and cluster_out in printed
    assert _hash(cluster_out, s3) == _hash(direct_out, s3)
    direct, cluster = _stats(object_store["client"], "direct"), _stats(object_store["client"], "cluster")
    assert cluster["funnel"] == direct["funnel"] and cluster["relations"] == direct["relations"]
    assert cluster["split"] == direct["split"]
    assert cluster["output_check"]["pairs"]["rows"] > 0
    # Spill and temporary files lived in the store and are gone after the run.
    keys = [o["Key"] for o in object_store["client"].list_objects_v2(Bucket=BUCKET, Prefix="cluster/")
            .get("Contents", [])]
    assert keys and not [k for k in keys if "/_spill/" in k or k.rsplit("/", 1)[-1].startswith("_")], keys


def test_private_disk_without_an_object_store_fails_loudly(private_workers, raw_in_store, tmp_path, capsys):
    out = tmp_path / "local-out"
    args = ["build", "--input", str(raw_in_store["local"] / "raw-*.jsonl"), "--out", str(out), *BUILD,
            *_portable(private_workers)]
    # Refused before the job starts...
    assert main(args) == 2
    assert "are local paths" in capsys.readouterr().err
    assert not out.exists()
    # ...and when forced, the workers match no input file on their own disk and build nothing, which
    # is consistent with itself; the launcher knows what it matched: an error, never "0 pairs".
    rc = main([*args, "--force-local-paths"])
    captured = capsys.readouterr()
    assert rc == 2 and "cdtp build:" not in captured.out
    assert "the workers read no record" in captured.err
    assert not (out / "stats.json").exists()


def test_private_disk_with_local_output_only_loses_it_and_says_so(object_store, private_workers, raw_in_store,
                                                                    tmp_path, capsys):
    """Input in the store, --out local: the workers write to their own /tmp, the launcher sees nothing."""
    out = tmp_path / "lost"
    rc = main(["build", "--input", raw_in_store["pattern"], "--out", str(out), *BUILD, *_portable(private_workers),
               *object_store["args"], "--force-local-paths"])
    captured = capsys.readouterr()
    assert rc == 2, captured
    assert "do not match its own counts" in captured.err and "but the funnel counted" in captured.err
    assert "cdtp build:" not in captured.out
    assert not (out / "stats.json").exists()


def test_loopback_exits_with_the_builds_own_status(tmp_path):
    """LOOPBACK runs the SDK worker as gRPC threads in the launcher; its teardown could abort (exit 134)
    after a complete run. The CLI exits with the build's status before that teardown."""
    raw = tmp_path / "raw"
    write_fixture(raw / "raw-00000.jsonl", repeat=3)
    direct = tmp_path / "direct"
    assert main(["build", "--input", str(raw / "raw-*.jsonl"), "--out", str(direct), *BUILD,
                 "--runner=DirectRunner"]) == 0
    loop = tmp_path / "loopback"
    done = subprocess.run([sys.executable, "-m", "pipeline.cli", "build", "--input", str(raw / "raw-*.jsonl"),
                           "--out", str(loop), *BUILD, "--runner=PortableRunner", "--job_endpoint=embed",
                           "--environment_type=LOOPBACK"], env=_env(), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "cdtp build:" in done.stdout and "terminate called" not in done.stderr
    assert _hash(str(loop), []) == _hash(str(direct), [])


def test_an_earlier_build_in_the_store_is_refused_or_replaced(object_store):
    """exists() of a prefix is false on S3: the build must still see an earlier build's shards."""
    from apache_beam.io.filesystems import FileSystems
    from apache_beam.options.pipeline_options import PipelineOptions

    from pipeline.errors import CdtpError
    from pipeline.output_check import clear_object_store_out

    FileSystems.set_options(PipelineOptions(object_store["args"]))
    client = object_store["client"]
    client.put_object(Bucket=BUCKET, Key="old/pairs/domain=HP/split=train/part-00000-of-00003.parquet", Body=b"x")
    with pytest.raises(CdtpError, match="already holds build outputs \\(pairs\\)"):
        clear_object_store_out(f"s3://{BUCKET}/old", overwrite=False)
    clear_object_store_out(f"s3://{BUCKET}/old", overwrite=True)
    assert not client.list_objects_v2(Bucket=BUCKET, Prefix="old/").get("Contents")


@pytest.fixture(scope="module")
def shared_disk_workers(tmp_path_factory):
    """A worker pool whose workers see this disk (no --private-disk)."""
    yield from _worker_pool(tmp_path_factory)


def test_a_users_error_on_a_worker_is_one_clear_line(shared_disk_workers, tmp_path):
    """A CdtpError raised in a worker's process (a cache file cut short) reaches
    the launcher as the runner's RuntimeError: it is said as on the
    DirectRunner, and the relayed worker log and the job service's traceback
    of it are not printed."""
    raw = tmp_path / "raw"
    write_fixture(raw / "raw-00000.jsonl", repeat=3)
    write_cut_cache_file(tmp_path / "cache")
    done = subprocess.run([sys.executable, "-m", "pipeline.cli", "build", "--input", str(raw / "raw-*.jsonl"),
                           "--out", str(tmp_path / "out"), "--embed-cache", str(tmp_path / "cache"), *BUILD,
                           *_portable(shared_disk_workers), "--force-local-paths"],
                          env=_env(), capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "pipeline.errors.CdtpError" not in done.stderr, done.stderr[-2000:]
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("cdtp: error: ") and "cache-cut.arrow in the embedding cache is not a vector file" in last
