# svc: the daemon, the CLI and the dashboard in one image.
# Build: docker build -t svc .    Run: docker run -p 4000:4000 -v svc-data:/data svc

FROM node:20-bookworm-slim AS build
WORKDIR /src
# better-sqlite3 compiles its native module when no prebuilt binary can be fetched.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts && npm rebuild better-sqlite3
COPY . .
RUN node scripts/build.mjs --force && npm prune --omit=dev --ignore-scripts

FROM node:20-bookworm-slim
# ping for icmp checks, Debian's Chromium (/usr/bin/chromium) for browser checks;
# nothing else from the build stage's toolchain.
RUN apt-get update && apt-get install -y --no-install-recommends iputils-ping ca-certificates chromium fonts-dejavu-core && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /src/package.json ./
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
COPY --from=build /src/bin ./bin
RUN mkdir /data && chown node:node /data && ln -s /app/bin/svc /usr/local/bin/svc
ENV NODE_ENV=production \
    SVC_LISTEN=0.0.0.0:4000 \
    SVC_DB_URL=sqlite:/data/svc.db \
    SVC_LOG_FORMAT=json
USER node
VOLUME /data
EXPOSE 4000
STOPSIGNAL SIGTERM
# The probe asks the address the daemon listens on (SVC_LISTEN; 0.0.0.0 is asked on 127.0.0.1).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD node -e "const [h, p] = (process.env.SVC_LISTEN || '0.0.0.0:4000').split(/:(?=[0-9]+$)/); const host = ['0.0.0.0', '::', '[::]', ''].includes(h) ? '127.0.0.1' : h; fetch('http://' + host + ':' + p + '/api/v1/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# The Node flags of bin/svc's first line (see there).
CMD ["node", "--max-semi-space-size=4", "bin/svc", "daemon"]
