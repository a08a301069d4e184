/**
 * `npm run lighthouse`: Lighthouse's default mobile preset (Moto G Power emulation, simulated
 * slow 4G and 4x CPU throttling) in Debian's Chromium, for `/`, `/collection`, a product page
 * and `/about`. Reports the performance, accessibility, best-practices and SEO scores and
 * LCP, TBT, CLS and FCP, the median of N runs per page. Prints a table and writes
 * .bench/lighthouse.json. Never fails on a score: exit 1 only when the tool itself broke.
 *
 *   npm run lighthouse                         # own server: built dist/, fresh PGlite
 *   npm run lighthouse -- --runs 5 --driver pg # own server on a fresh PostgreSQL database
 *   npm run lighthouse -- --url http://127.0.0.1:4321
 *   npm run lighthouse -- --pages /,/about     # only these paths
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Result } from 'lighthouse';
import { assertAlive, firstProductId, median, openTarget, table, warmUp, writeReport } from './measure-target';

const { values: args } = parseArgs({
  options: {
    url: { type: 'string' },
    driver: { type: 'string', default: 'pglite' },
    runs: { type: 'string', default: '3' },
    pages: { type: 'string' },
    chrome: { type: 'string', default: process.env.CHROME_PATH ?? '/usr/bin/chromium' },
  },
});
const runs = Math.max(1, Number.parseInt(args.runs!, 10) || 3);
const chromePath = args.chrome!;
if (!existsSync(chromePath)) {
  console.error(`${chromePath} is missing: install Debian's Chromium (apt-get install chromium); browsers are never downloaded`);
  process.exit(1);
}

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const METRICS = {
  lcp: 'largest-contentful-paint',
  tbt: 'total-blocking-time',
  cls: 'cumulative-layout-shift',
  fcp: 'first-contentful-paint',
} as const;
type Metric = keyof typeof METRICS;

interface RunResult {
  scores: Record<(typeof CATEGORIES)[number], number | null>;
  metrics: Record<Metric, number | null>;
  finalUrl: string;
  warnings: string[];
  /** Weighted audits below full marks in the accessibility, best-practices and SEO categories. */
  failedAudits: string[];
  error?: string;
}

const target = await openTarget({ url: args.url, driver: args.driver });
let chrome: chromeLauncher.LaunchedChrome | undefined;
let broken = false;
try {
  const productPath = `/product/${await firstProductId(target.baseUrl)}`;
  const pages = args.pages ? args.pages.split(',').map((p) => p.trim()).filter(Boolean) : ['/', '/collection', productPath, '/about'];
  await warmUp(target.baseUrl, pages);

  chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-default-apps',
      '--disable-extensions',
      '--disable-sync',
      '--no-first-run',
      '--no-default-browser-check',
      '--mute-audio',
    ],
    logLevel: 'silent',
  });
  console.log(`Lighthouse ${runs} run(s) per page, mobile preset, Chromium ${chromePath}`);
  console.log(`target: ${target.description}`);

  const results: Record<string, RunResult[]> = {};
  for (const page of pages) {
    results[page] = [];
    for (let i = 0; i < runs; i++) {
      const started = Date.now();
      let lhr: Result | undefined;
      // A page load Chromium could not complete (runtimeError, e.g. CHROME_INTERSTITIAL_ERROR) is
      // retried twice; a run that still failed is kept in the JSON and left out of the medians.
      for (let attempt = 1; attempt <= 3; attempt++) {
        const out = await lighthouse(target.baseUrl + page, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: [...CATEGORIES],
        });
        if (!out) throw new Error(`Lighthouse returned nothing for ${page}`);
        lhr = out.lhr;
        if (!lhr.runtimeError) break;
        await assertAlive(target.baseUrl);
        console.warn(`  ${page}: attempt ${attempt}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
      }
      if (!lhr) throw new Error(`Lighthouse returned nothing for ${page}`);
      const scores = Object.fromEntries(
        CATEGORIES.map((c) => {
          const s = lhr.categories[c]?.score;
          return [c, typeof s === 'number' ? Math.round(s * 100) : null];
        }),
      ) as RunResult['scores'];
      const metrics = Object.fromEntries(
        (Object.keys(METRICS) as Metric[]).map((m) => {
          const v = lhr.audits[METRICS[m]]?.numericValue;
          return [m, typeof v === 'number' ? v : null];
        }),
      ) as RunResult['metrics'];
      const failedAudits = CATEGORIES.filter((c) => c !== 'performance').flatMap((c) =>
        (lhr.categories[c]?.auditRefs ?? [])
          .filter((ref) => ref.weight > 0 && typeof lhr.audits[ref.id]?.score === 'number' && lhr.audits[ref.id]!.score! < 1)
          .map((ref) => `${c}: ${ref.id}`),
      );
      results[page].push({
        scores,
        metrics,
        failedAudits,
        finalUrl: lhr.finalDisplayedUrl,
        warnings: lhr.runWarnings,
        error: lhr.runtimeError?.code,
      });
      console.log(
        `  ${page} run ${i + 1}/${runs}: perf ${scores.performance ?? '-'}, LCP ${fmtMs(metrics.lcp)}, TBT ${fmtMs(metrics.tbt)} (${((Date.now() - started) / 1000).toFixed(0)} s)`,
      );
    }
  }

  const summary = pages.map((page) => {
    const rs = results[page]!;
    const med = (pick: (r: RunResult) => number | null) => median(rs.map(pick).filter((v): v is number => v !== null));
    return {
      page,
      runs: rs.length,
      median: {
        performance: med((r) => r.scores.performance),
        accessibility: med((r) => r.scores.accessibility),
        'best-practices': med((r) => r.scores['best-practices']),
        seo: med((r) => r.scores.seo),
        lcpMs: med((r) => r.metrics.lcp),
        tbtMs: med((r) => r.metrics.tbt),
        cls: med((r) => r.metrics.cls),
        fcpMs: med((r) => r.metrics.fcp),
      },
      failedRuns: rs.filter((r) => r.error).length,
      failedAudits: [...new Set(rs.flatMap((r) => r.failedAudits))],
      performanceRange: perfRange(rs),
    };
  });

  console.log(`\nmedian of ${runs} run(s) per page; range: lowest-highest performance score`);
  for (const s of summary) if (s.failedRuns) console.log(`  ${s.page}: ${s.failedRuns} run(s) failed and are left out`);
  console.log(
    table(
      ['page', 'perf', 'range', 'a11y', 'best pr.', 'SEO', 'LCP', 'TBT', 'CLS', 'FCP'],
      summary.map((s) => [
        s.page,
        fmtScore(s.median.performance),
        s.performanceRange ? `${s.performanceRange[0]}-${s.performanceRange[1]}` : '-',
        fmtScore(s.median.accessibility),
        fmtScore(s.median['best-practices']),
        fmtScore(s.median.seo),
        fmtMs(s.median.lcpMs),
        fmtMs(s.median.tbtMs),
        Number.isFinite(s.median.cls) ? s.median.cls.toFixed(3) : '-',
        fmtMs(s.median.fcpMs),
      ]),
    ),
  );
  for (const s of summary) if (s.failedAudits.length) console.log(`${s.page}: below full marks: ${s.failedAudits.join(', ')}`);
  const file = writeReport('lighthouse.json', {
    date: new Date().toISOString(),
    target: target.description,
    chrome: chromePath,
    preset: 'lighthouse default (mobile, Moto G Power, simulated throttling)',
    runsPerPage: runs,
    summary,
    runs: results,
  });
  console.log(`\nwritten ${file}`);
} catch (e) {
  broken = true;
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
} finally {
  chrome?.kill();
  await target.stop();
}
process.exit(broken ? 1 : 0);

function perfRange(rs: RunResult[]): [number, number] | null {
  const perf = rs.map((r) => r.scores.performance).filter((v): v is number => v !== null);
  return perf.length ? [Math.min(...perf), Math.max(...perf)] : null;
}
function fmtMs(v: number | null): string {
  if (v === null || !Number.isFinite(v)) return '-';
  return v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${Math.round(v)} ms`;
}
function fmtScore(v: number): string {
  return Number.isFinite(v) ? String(Math.round(v)) : '-';
}
