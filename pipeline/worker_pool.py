"""`cdtp workers`: a pool of Beam SDK workers on loopback, optionally on a disk of their own.

Why not `python -m apache_beam.runners.worker.worker_pool_main`:
* it listens on all interfaces (`[::]`), so anyone on the network can start
  processes; this pool binds 127.0.0.1 (or the --host given);
* in process mode it starts `SdkHarness` directly, without the pipeline
  options, so a worker's FileSystems know nothing of `--s3_endpoint_url` and
  friends. A real SDK container's boot program fetches the options from the
  runner's provision service and starts `sdk_worker_main` with them; each
  worker here is started the same way (`cdtp workers boot`, below), so the
  pool runs the worker code Dataflow Runner v2 runs, options included.

`--private-disk` (root, Linux) starts the pool inside a private mount
namespace with empty tmpfs over /work and /tmp, only the Python environment
and the project's code mounted back read-only: the workers share nothing with
the launcher but the network, like workers on other machines. A build with a
local --out then loses its output (and says so: pipeline/output_check.py);
with s3:// or gs:// paths it must give the same content as the DirectRunner.

    cdtp workers --port 50000 --private-disk &
    cdtp build --input 's3://B/raw/raw-*.jsonl' --out s3://B/build --runner=PortableRunner \\
        --job_endpoint=embed --environment_type=EXTERNAL --environment_config=127.0.0.1:50000 \\
        --s3_endpoint_url=http://127.0.0.1:PORT --s3_access_key_id=... --s3_secret_access_key=...
"""
from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HIDDEN = ("/work", "/tmp")  # what a private-disk worker must not see of the launcher


def register(subparsers) -> None:
    w = subparsers.add_parser(
        "workers", help="run a pool of Beam SDK workers on loopback (for --environment_type=EXTERNAL)",
        description="A Beam worker pool bound to 127.0.0.1; with --private-disk its workers run in a private "
                    "mount namespace and cannot see the launcher's files (the cluster rehearsal).")
    w.add_argument("--port", type=int, help="port of the worker pool service (required)")
    w.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    w.add_argument("--private-disk", action="store_true",
                   help="run in a private mount namespace with tmpfs over /work and /tmp (root, Linux)")
    w.set_defaults(handler=run_workers)
    sub = w.add_subparsers(dest="workers_command", metavar="boot")
    b = sub.add_parser("boot", help="(internal) start one SDK worker the way an SDK container's boot does")
    for name in ("id", "control_endpoint", "provision_endpoint", "logging_endpoint", "artifact_endpoint"):
        b.add_argument(f"--{name}", default="")
    b.set_defaults(handler=run_boot)


# ------------------------------------------------------------------ the pool
def _servicer_class():
    from apache_beam.portability.api import beam_fn_api_pb2
    from apache_beam.runners.worker.worker_pool_main import BeamFnExternalWorkerPoolServicer

    class LoopbackWorkerPool(BeamFnExternalWorkerPoolServicer):
        """Starts each worker through `cdtp workers boot`, with the job's pipeline options."""

        def StartWorker(self, request, unused_context):
            command = [sys.executable, "-m", "pipeline.worker_pool", "boot", f"--id={request.worker_id}",
                       f"--control_endpoint={request.control_endpoint.url}",
                       f"--provision_endpoint={request.provision_endpoint.url}",
                       f"--logging_endpoint={request.logging_endpoint.url}",
                       f"--artifact_endpoint={request.artifact_endpoint.url}"]
            try:
                self._worker_processes[request.worker_id] = subprocess.Popen(command, close_fds=True)
            except OSError as exc:
                return beam_fn_api_pb2.StartWorkerResponse(error=f"cannot start a worker: {exc}")
            return beam_fn_api_pb2.StartWorkerResponse()

    return LoopbackWorkerPool


def serve(host: str, port: int):
    """Start the pool on host:port; (bound address, grpc server)."""
    import grpc
    from apache_beam.portability.api import beam_fn_api_pb2_grpc
    from apache_beam.utils import thread_pool_executor

    server = grpc.server(thread_pool_executor.shared_unbounded_instance(),
                         options=[("grpc.http2.max_pings_without_data", 0), ("grpc.http2.max_ping_strikes", 0)])
    bound = server.add_insecure_port(f"{host}:{port}")
    if not bound:
        from pipeline.errors import CdtpError

        raise CdtpError(f"cannot bind the worker pool to {host}:{port}")
    pool = _servicer_class()(use_process=True)
    beam_fn_api_pb2_grpc.add_BeamFnExternalWorkerPoolServicer_to_server(pool, server)
    server.start()
    return f"{host}:{bound}", server, pool


def private_disk_script(argv: list[str], keep: list[str]) -> str:
    """Shell steps, run under `unshare -m`, that hide /work and /tmp but for `keep` (read-only)."""
    steps = ["set -e", "mount --make-rprivate /", "mount -t tmpfs cdtp-keep /mnt"]
    for i, path in enumerate(keep):
        steps += [f"mkdir -p /mnt/keep{i}", f"mount --bind {shlex.quote(path)} /mnt/keep{i}"]
    steps += [f"mount -t tmpfs cdtp-private {d}" for d in HIDDEN if os.path.isdir(d)]
    for i, path in enumerate(keep):
        q = shlex.quote(path)
        steps += [f"mkdir -p {q}", f"mount --bind /mnt/keep{i} {q}", f"mount -o remount,bind,ro {q}"]
    steps.append("exec " + " ".join(shlex.quote(a) for a in argv))
    return "\n".join(steps)


def kept_paths() -> list[str]:
    """What workers need of the hidden trees: the Python environment and the project's code."""
    wanted = [Path(sys.prefix).resolve(), ROOT]
    keep: list[Path] = []
    for p in sorted(set(wanted), key=lambda p: len(p.parts)):
        if any(p.is_relative_to(h) for h in HIDDEN) and not any(p.is_relative_to(k) for k in keep):
            keep.append(p)
    return [str(p) for p in keep]


def run_workers(args) -> int:
    from pipeline.errors import CdtpError

    from pipeline.listen import listen_address

    if args.port is None:
        raise CdtpError("cdtp workers needs --port PORT")
    args.host, args.port = listen_address(args.host, args.port)
    if args.private_disk:
        if os.geteuid() != 0 or not sys.platform.startswith("linux"):
            raise CdtpError("--private-disk needs root on Linux (a private mount namespace); run the pool as "
                            "another user with its own directory instead")
        argv = [sys.executable, "-m", "pipeline.worker_pool", "--port", str(args.port), "--host", args.host]
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT)] + [p for p in os.environ.get(
            "PYTHONPATH", "").split(os.pathsep) if p]), CDTP_PRIVATE_DISK="1", TMPDIR="/tmp")
        os.execvpe("unshare", ["unshare", "-m", "--", "sh", "-c", private_disk_script(argv, kept_paths())], env)
    address, server, _pool = serve(args.host, args.port)
    private = " (private disk)" if os.environ.get("CDTP_PRIVATE_DISK") else ""
    print(f"cdtp workers: listening on {address}{private}", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        server.stop(0)
    return 0


# ------------------------------------------------------------------ one worker
def run_boot(args) -> int:
    """Fetch the job's provision info, then run `sdk_worker_main` with it (what the SDK container's boot does)."""
    import tempfile

    if not args.provision_endpoint or not args.control_endpoint:
        from pipeline.errors import CdtpError

        raise CdtpError("cdtp workers boot is started by the worker pool (`cdtp workers --port P`), "
                        "with --id and the job's --provision_endpoint and --control_endpoint; not by hand")

    import grpc
    from apache_beam.portability.api import beam_provision_api_pb2, beam_provision_api_pb2_grpc
    from google.protobuf import json_format

    with grpc.insecure_channel(args.provision_endpoint) as channel:
        info = beam_provision_api_pb2_grpc.ProvisionServiceStub(channel).GetProvisionInfo(
            beam_provision_api_pb2.GetProvisionInfoRequest(), metadata=[("worker_id", args.id)]).info
    env = dict(os.environ)
    env.update(
        WORKER_ID=args.id,
        PIPELINE_OPTIONS=json_format.MessageToJson(info.pipeline_options),
        CONTROL_API_SERVICE_DESCRIPTOR=f'url: "{args.control_endpoint}"',
        LOGGING_API_SERVICE_DESCRIPTOR=f'url: "{args.logging_endpoint}"',
        SEMI_PERSISTENT_DIRECTORY=tempfile.mkdtemp(prefix=f"beam-worker-{args.id}-"),
    )
    if info.status_endpoint.url:
        env["STATUS_API_SERVICE_DESCRIPTOR"] = f'url: "{info.status_endpoint.url}"'
    os.execve(sys.executable, [sys.executable, "-m", "apache_beam.runners.worker.sdk_worker_main"], env)
    return 0  # pragma: no cover - execve does not return


if __name__ == "__main__":  # `python -m pipeline.worker_pool ...` (what the pool runs inside the namespace)
    from pipeline.cli import main as _main

    sys.exit(_main(["workers", *sys.argv[1:]]))
