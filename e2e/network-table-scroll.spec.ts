import { expect, test } from '@playwright/test';
import { serveBenchPage } from '../bench/ui/serve.js';

// The real requests table in Chromium (the bench page): rows that leave the top when the byte
// budget drops the oldest must not move a view the user scrolled up to read.

interface BenchWindow {
  bench: {
    render(n: number): Promise<number>;
    dropOldest(n: number, scrollTo: number): Promise<{ before: string; after: string }>;
  };
}

test('dropping the oldest rows keeps a scrolled-up view on the same row', async ({ page }) => {
  const served = await serveBenchPage();
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(served.url);
    await page.waitForFunction(() => 'bench' in window);
    await page.evaluate(() => (window as unknown as BenchWindow).bench.render(2000));
    // Scrolled up to row 1,000 (24 px rows), then the 300 oldest go.
    const { before, after } = await page.evaluate(() =>
      (window as unknown as BenchWindow).bench.dropOldest(300, 24 * 1000),
    );
    expect(before).toContain('/v1/');
    expect(after).toBe(before);
  } finally {
    await served.close();
  }
});
