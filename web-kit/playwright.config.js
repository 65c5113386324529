// The static demo in the system Chromium (CHROMIUM; Playwright's own browser download is skipped).
// dist/ (web-kit/build.sh) is served by a plain static file server: the page needs nothing else.
import { defineConfig } from '@playwright/test';

const port = Number(process.env.KIT_TEST_PORT || 18091);

export default defineConfig({
  testDir: './tests',
  testMatch: '*.spec.js',
  timeout: 180_000,
  workers: 1,
  reporter: [['list']],
  outputDir: process.env.ARTEFACTS ? `${process.env.ARTEFACTS}/results` : 'artefacts/results',
  webServer: {
    command: `python3 -m http.server ${port} --bind 127.0.0.1 --directory dist`,
    url: `http://127.0.0.1:${port}/index.html`,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'ignore',
  },
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 1280, height: 860 },
    launchOptions: {
      executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    },
    screenshot: 'only-on-failure',
  },
});
