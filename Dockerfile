# afhttp takeover host: Debian Chromium + Node, profiles on a volume at /profiles.
# The steps mirror `npm start` (scripts/setup.mjs → build → `afhttp serve`).
FROM node:22-bookworm-slim

ENV DEBIAN_FRONTEND=noninteractive \
    PUPPETEER_SKIP_DOWNLOAD=true
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium fonts-liberation xvfb xauth tini ca-certificates \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY panel ./panel
COPY scripts ./scripts
RUN npm run build && npm prune --omit=dev

RUN mkdir -p /profiles && chown -R node:node /profiles
USER node

ENV AFHTTP_HOST=0.0.0.0 \
    AFHTTP_PORT=8787 \
    AFHTTP_PROFILES_DIR=/profiles \
    AFHTTP_CHROMIUM=/usr/bin/chromium \
    NODE_ENV=production
VOLUME ["/profiles"]
EXPOSE 8787

HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "scripts/healthcheck.mjs"]

ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/cli/index.js", "serve"]
