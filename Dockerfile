# afhttp takeover host: Debian Chromium + Node, profiles on a volume at /profiles.
# Three stages: the build (all dependencies, tsc), the production dependencies alone, and the
# runtime that gets only dist/ (the panel page bundled into dist/www), the panel document, the
# scripts and production node_modules.

FROM node:22-bookworm-slim AS build
ENV PUPPETEER_SKIP_DOWNLOAD=true
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json tsconfig.panel.json ./
COPY scripts/build-panel.mjs ./scripts/
COPY src ./src
RUN npm run build

FROM node:22-bookworm-slim AS prod-deps
ENV PUPPETEER_SKIP_DOWNLOAD=true
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim AS runtime
ENV DEBIAN_FRONTEND=noninteractive \
    PUPPETEER_SKIP_DOWNLOAD=true
# Chromium and its fonts, tini as PID 1 (reaps Chromium's children, forwards signals), and Xvfb
# for the headful browser a person takes over (docs/spec.md section 13).
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium fonts-liberation xvfb xauth tini ca-certificates \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY panel ./panel
COPY inbox ./inbox
COPY scripts ./scripts

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
