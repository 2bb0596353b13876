# syntax=docker/dockerfile:1
# Matter Hub add-on image. Multi-stage: native modules (better-sqlite3) are compiled on Alpine (musl) like the
# runtime, servers are compiled to JavaScript (tsx would cost ~100 MB RSS), and the web UIs are built here.
ARG BUILD_FROM=ghcr.io/home-assistant/base:3.23
ARG NODE_IMAGE=node:22-alpine3.23

FROM ${NODE_IMAGE} AS build
WORKDIR /app
RUN apk add --no-cache build-base python3
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY lib lib
COPY hub hub
COPY portal portal
# Demo mode (no Home Assistant configured) runs the simulators, so they are compiled and shipped with the servers.
COPY simulators simulators
COPY web web
RUN npm run build && npm run build:server && npm prune --omit=dev && rm -rf node_modules/.cache

FROM ${NODE_IMAGE} AS node

FROM ${BUILD_FROM}
ARG BUILD_ARCH=amd64
ARG BUILD_VERSION=0.1.0
# Node 22 LTS from the official Alpine image (same musl libc as the base and the build stage).
RUN apk add --no-cache bash curl libgcc libstdc++
COPY --from=node /usr/local/bin/node /usr/local/bin/node
# npm installs hub plugins at run time (from the registry or an uploaded .tgz, into the data dir; docs/plugins.md).
COPY --from=node /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/npm
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY run.sh ./run.sh
COPY addon/rootfs /
ENV NODE_ENV=production
LABEL \
  io.hass.name="Matter Hub" \
  io.hass.description="Matter bridges for Home Assistant entities and a Matrix registration portal" \
  io.hass.type="addon" \
  io.hass.version="${BUILD_VERSION}" \
  io.hass.arch="${BUILD_ARCH}"
HEALTHCHECK --interval=30s --timeout=10s --start-period=120s --retries=3 CMD ["/usr/local/bin/matter-hub-healthcheck"]
# Docker's init (the add-on's default `init: true`) is PID 1 and forwards SIGTERM to run.sh, which supervises both
# servers; the base image's s6 /init is not used.
ENTRYPOINT ["/app/run.sh"]
