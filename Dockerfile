# The connector (and the rest of the magnifinance CLI) as a container, on Node 24 (the current LTS).
#   docker build -t magnifinance-connector .
#   docker network create magnifinance
#   docker run -d --name redis --network magnifinance redis:7-alpine redis-server --appendonly yes --maxmemory-policy noeviction
#   docker run --env-file .env -e REDIS_URL=redis://redis:6379 --network magnifinance \
#     -v $PWD/tenants.yaml:/config/tenants.yaml:ro -p 127.0.0.1:8080:8080 magnifinance-connector
# (.env from connector/env.example; tenants.yaml reads REDIS_URL, which must name a Redis the
# container reaches: not 127.0.0.1, that is the container itself.) Publish on 127.0.0.1 and put the
# TLS reverse proxy of server.publicUrl in front: /metrics and /admin stay off the internet.
# The doctor, in the same image and network:
#   docker run --rm --env-file .env -e REDIS_URL=redis://redis:6379 --network magnifinance \
#     -v $PWD/tenants.yaml:/config/tenants.yaml:ro magnifinance-connector doctor --config /config/tenants.yaml --dry-run 5
# Default command: `connector all` (HTTP side + workers in one process). See docker-compose.yml for
# the split into `serve` and `work` with Redis persisted on a volume.

FROM node:24-bookworm-slim AS build
WORKDIR /app
# .npmrc (ignore-scripts=true) too: without it a dev dependency's install script (npx only-allow
# pnpm) fails the build. Nothing here needs an install script: msgpackr-extract ships prebuilt.
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
ENV NODE_ENV=production
# The HTTP port, for the connector (it wins over server.port) and the health check alike.
ENV PORT=8080
# Bounded heap: under a burst V8 grows the old space lazily (about 290 MB RSS measured); with a
# 160 MB old space the connector peaked at 175 MB for the same throughput (bench/run.ts).
ENV NODE_OPTIONS="--max-old-space-size=160"
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
USER node
EXPOSE 8080
# /healthz answers while the process serves; /readyz also pings Redis (use it for load balancers).
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# SIGTERM (docker stop) triggers the ordered shutdown: HTTP server, workers, queues, Redis.
# Give it longer than server.shutdownTimeoutMs: docker stop -t 30.
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "dist/cli/magnifinance.js"]
CMD ["connector", "all", "--config", "/config/tenants.yaml"]
