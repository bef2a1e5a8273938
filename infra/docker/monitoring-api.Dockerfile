# syntax=docker/dockerfile:1.7
# Monitoring API image. Build from the repository root:
#   docker build -f infra/docker/monitoring-api.Dockerfile -t monitoring-api .
# One image runs the API (default CMD) and, with another command, the chart's migration Job
# (node dist/bin/migrate.js), rank CronJob (node dist/bin/rank-job.js) and demo seed (node dist/bin/seed.js).
# infra/smoke-prune.mjs runs the same prune/install/build/deploy steps without Docker.

# Exact Node 20 release on Debian bookworm (slim). Pin a digest too when you build for production:
#   --build-arg NODE_IMAGE=node:20.20.2-bookworm-slim@sha256:<digest>
ARG NODE_IMAGE=node:20.20.2-bookworm-slim

# ---- prune: only the app and the workspace packages it depends on ----------------------------
FROM ${NODE_IMAGE} AS prune
ENV TURBO_TELEMETRY_DISABLED=1
# The pnpm of package.json "packageManager", straight from the npm registry.
RUN npm install --global --no-fund --no-audit pnpm@12.21.0
WORKDIR /repo
COPY . .
# out/json: package.json files + pruned lockfile (install layer); out/full: their sources.
RUN pnpm dlx turbo@2.11.11 prune @ctss/monitoring-api --docker --out-dir /out

# ---- build: install from the pruned lockfile, compile, then take production dependencies -------
FROM ${NODE_IMAGE} AS build
ENV TURBO_TELEMETRY_DISABLED=1 CI=true
RUN npm install --global --no-fund --no-audit pnpm@12.21.0
WORKDIR /repo
COPY .npmrc ./
COPY --from=prune /out/json/ ./
RUN --mount=type=cache,id=pnpm-store,target=/root/.local/share/pnpm/store \
    pnpm install --frozen-lockfile
COPY --from=prune /out/full/ ./
RUN pnpm exec turbo run build --filter=@ctss/monitoring-api...
# A self-contained copy of the app: its files, dist/ and production node_modules only
# (workspace packages are copied in with their dist/, not linked).
RUN --mount=type=cache,id=pnpm-store,target=/root/.local/share/pnpm/store \
    pnpm --filter @ctss/monitoring-api deploy --prod /prod/app

# ---- runtime: node + the deployed app, nothing else ---------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production PORT=3000
WORKDIR /app
# Owned by root and not writable by the app user: the container also runs with a read-only root.
COPY --from=build /prod/app/package.json ./package.json
COPY --from=build /prod/app/node_modules ./node_modules
COPY --from=build /prod/app/dist ./dist
# The "node" user of the official image (UID/GID 1000), numeric so runAsNonRoot can verify it.
USER 1000:1000
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health').then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"]
# node is PID 1 and handles SIGTERM itself (graceful drain in the app). The V8 heap flags are the
# chart's (values.yaml `command`, docs/decisions.md "D240. The monitoring API's heap limit follows
# its memory limit", "D340. The monitoring API's heap growth and young generation").
CMD ["node", "--max-old-space-size=256", "--heap-growing-percent=70", "--max-semi-space-size=8", "dist/bin/main.js"]
