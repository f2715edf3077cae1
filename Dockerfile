FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev
COPY . .
USER node
EXPOSE 3000
# The V8 heap settings of package.json's start script (see the README's Configuration).
CMD ["node", "--max-semi-space-size=64", "--initial-old-space-size=256", "--import", "tsx", "api/main.ts"]
