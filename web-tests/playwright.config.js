// Browser tests of the play page. The server is started by .ci/browser-tests (SABACC_URL); the
// browser is the system Chromium (CHROMIUM), never a downloaded one.
const { defineConfig } = require("@playwright/test");

module.exports = defineConfig({
  testDir: "./tests",
  timeout: 120_000,
  workers: 1,
  reporter: [["list"]],
  outputDir: process.env.ARTEFACTS ? `${process.env.ARTEFACTS}/results` : "artefacts/results",
  use: {
    baseURL: process.env.SABACC_URL || "http://127.0.0.1:8080",
    viewport: { width: 1280, height: 860 },
    launchOptions: {
      executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
    },
    screenshot: "only-on-failure",
  },
});
