#!/usr/bin/env sh
# Downloads the pinned front-end libraries into static/js. Run once after unzipping,
# and again after changing a version below. The files are meant to be committed.
set -eu
HTMX_VERSION=2.0.4
ALPINE_VERSION=3.14.8
mkdir -p static/js
curl -fsSL "https://unpkg.com/htmx.org@${HTMX_VERSION}/dist/htmx.min.js" -o static/js/htmx.min.js
curl -fsSL "https://unpkg.com/alpinejs@${ALPINE_VERSION}/dist/cdn.min.js" -o static/js/alpine.min.js
echo "htmx ${HTMX_VERSION} and Alpine.js ${ALPINE_VERSION} saved to static/js/"
