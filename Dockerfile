# Built in one stage (dev dependencies, TypeScript compiled to dist/), run from another: compiled JavaScript
# and production dependencies only, no tsx and no sources.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/bin ./bin
COPY --from=build /app/dist ./dist
USER node
EXPOSE 3000
# The V8 heap settings of package.json's start script (see the README's Configuration); test/build.test.ts runs this line.
CMD ["node", "--max-semi-space-size=64", "--initial-old-space-size=256", "dist/api/main.js"]
