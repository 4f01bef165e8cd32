// The playground in headless Chromium: every example gets its hints, the
// page shows SUB2's hint and DGEFA's non-overlapped broadcast, hovers work,
// code actions change the text as they say, "Estimate this loop" draws its
// plot, and after it has loaded the page sends no request. The exported
// page is checked too, served by a plain static server.
//
// usage: node test/browser.mjs URL EXPORT_DIR
// Prints one line per check and the first-hints times; exits 1 on a failure.
import {chromium} from "playwright-core";
import {mkdtempSync, readdirSync, readFileSync, rmSync, statSync} from "node:fs";
import {createServer} from "node:http";
import {tmpdir} from "node:os";
import {dirname, extname, join} from "node:path";
import {fileURLToPath} from "node:url";

const [base, exportDir] = process.argv.slice(2);
if (!base || !exportDir) {
  console.error("usage: node test/browser.mjs URL EXPORT_DIR");
  process.exit(2);
}
const here = dirname(fileURLToPath(import.meta.url));
const examplesDir = join(here, "..", "..", "examples");
const examples = readdirSync(examplesDir).filter((n) => !n.startsWith(".") && statSync(join(examplesDir, n)).isFile()).sort();

let passed = 0;
let failed = 0;
function check(name, ok, detail) {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? "ok  " : "FAIL"} ${name}${!ok && detail ? ": " + detail : ""}`);
}

const profile = mkdtempSync(join(tmpdir(), "pfls-web-chromium-"));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync"],
});

// Every request of every page, with whether the page had loaded then.
const requests = [];
let loaded = false;
context.on("request", (r) => requests.push({url: r.url(), afterLoad: loaded}));

// open loads the page and waits for its analyses and first hints.
async function open(url) {
  loaded = false;
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.goto(url);
  await page.waitForSelector("body[data-state=ready]", {timeout: 30000});
  await page.waitForSelector(".cm-pfls-hint", {timeout: 30000});
  loaded = true;
  return {page, errors};
}

// text is the editor's text, without the hint widgets.
async function text(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll(".cm-content .cm-line")]
      .map((l) => {
        const c = l.cloneNode(true);
        c.querySelectorAll(".cm-pfls-hint, .cm-widgetBuffer").forEach((w) => w.remove());
        return c.textContent;
      })
      .join("\n"),
  );
}

// analysedAfter waits for an analysis after the count n.
async function analysedAfter(page, n) {
  await page.waitForFunction((n) => Number(document.body.dataset.analyses) > n, n, {timeout: 15000});
}
const analyses = (page) => page.evaluate(() => Number(document.body.dataset.analyses));

const firstHints = {};
try {
  // Each example by ?example=NAME: its hints appear.
  for (const name of examples) {
    const stem = name.replace(/\.[^.]*$/, "");
    const {page, errors} = await open(`${base}/?example=${stem}`);
    const shown = await page.$eval("#example", (s) => s.value);
    const hints = await page.$$eval(".cm-pfls-hint", (hs) => hs.map((h) => h.textContent));
    firstHints[name] = await page.evaluate(() => window.pflsTimes.firstHints);
    check(`${name}: ${hints.length} hints`, shown === name && hints.length > 0 && errors.length === 0,
      `shown ${shown}, errors ${errors.join("; ")}`);
    await page.close();
  }

  // SUB2: the routine's summary of Zhou's report, at the header.
  {
    const {page} = await open(`${base}/?example=sub2`);
    const unit = await page.$$eval(".cm-pfls-hint[data-kind=unit]", (hs) => hs.map((h) => h.textContent));
    check("sub2: the SUB2 hint", unit.some((h) => h.startsWith("1/2·M³ + 75/4·M²")), JSON.stringify(unit));
    const tip = await page.$eval(".cm-pfls-hint[data-kind=unit]", (h) => h.title);
    check("sub2: the hint's tooltip has every piece", tip.includes("1/2*M^3 + 75/4*M^2 + 154*M - 83") && tip.includes("M <= 0: 1"), tip);
    await page.close();
  }

  // DGEFA: the non-overlapped broadcast of Adve et al., on line 12.
  {
    const {page} = await open(`${base}/?example=dgefa`);
    const d = await page.$$eval(".pfls-diag[data-code=non-overlapped-broadcast]", (ds) => ds.map((x) => x.textContent));
    check("dgefa: the non-overlapped-broadcast diagnostic", d.length === 1 && d[0].startsWith("12:7 warning:"), JSON.stringify(d));
    const underlined = await page.$$eval(".cm-lintRange-warning", (x) => x.length);
    check("dgefa: the diagnostic is underlined in the editor", underlined >= 1, `${underlined}`);

    // A hover on a distributed array names its distribution.
    const at = await page.evaluate(() => {
      // The middle of the character that starts "A WITH" on the ALIGN line.
      const line = [...document.querySelectorAll(".cm-line")].find((l) => l.textContent.includes("ALIGN A WITH D"));
      let want = line.textContent.indexOf("A WITH");
      const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (want < n.length) {
          const r = document.createRange();
          r.setStart(n, want);
          r.setEnd(n, want + 1);
          const b = r.getBoundingClientRect();
          return {x: b.x + b.width / 2, y: b.y + b.height / 2};
        }
        want -= n.length;
      }
      return null;
    });
    await page.mouse.move(at.x, at.y);
    const hover = await page.waitForSelector(".cm-pfls-hover", {timeout: 10000}).then((h) => h.textContent(), () => "");
    check("dgefa: hover on A shows its declaration and distribution", hover.includes("A(NMAX,NMAX)") && hover.includes("D(:,CYCLIC)"), hover);
    await page.close();
  }

  // example.fcm: the missing-align quick fix inserts the directive, and
  // the diagnostic goes.
  {
    const {page} = await open(`${base}/?example=example`);
    const fix = page.locator(".pfls-diag[data-code=missing-align] button.action");
    const title = await fix.textContent();
    const n = await analyses(page);
    await fix.click();
    await analysedAfter(page, n);
    const lines = (await text(page)).split("\n");
    check(`example.fcm: quick fix "${title}" inserts the line`, title === "Insert CMF$ ALIGN B(I,J) WITH A(I,J)" &&
      lines[6] === "CMF$ ALIGN B(I,J) WITH A(I,J)" && lines[5].includes("INTEGER A(N+1,N+1), B(N,N), ASUM"), lines.slice(4, 8).join(" | "));
    const left = await page.$$eval(".pfls-diag[data-code=missing-align]", (x) => x.length);
    check("example.fcm: the missing-align diagnostic is gone after the fix", left === 0, `${left} left`);
    await page.close();
  }

  // redblack: the actions of the main loop's line; a distribution rewrite
  // edits the DISTRIBUTE line; "Estimate this loop" draws the plot.
  {
    const {page} = await open(`${base}/?example=redblack`);
    await page.click(".cm-content");
    await page.keyboard.press("Control+Home");
    for (let i = 0; i < 12; i++) await page.keyboard.press("ArrowDown");
    await page.waitForFunction(() => document.getElementById("action-line").textContent === "13" &&
      document.querySelectorAll("#actions button.action").length > 1, null, {timeout: 10000});
    const titles = await page.$$eval("#actions button.action", (bs) => bs.map((b) => b.textContent));
    check("redblack: line 13 offers the estimate and the rewrites", titles[0] === "Estimate this loop" &&
      titles.some((t) => t.startsWith("Distribute G(:,BLOCK): ")), JSON.stringify(titles));

    await page.click("#actions button.action >> nth=0");
    const est = await page.waitForSelector("#estimate img", {timeout: 60000}).then(() => page.textContent("#estimate pre"), () => "");
    const svg = await page.$eval("#estimate img", (i) => decodeURIComponent(i.src.replace(/^data:image\/svg\+xml;charset=utf-8,/, ""))).catch(() => "");
    check("redblack: Estimate this loop shows the report and its plot", est.startsWith("Loop at line 13 on 16 processors, G(BLOCK,BLOCK):") &&
      svg.includes("<svg") && svg.includes("G(:,BLOCK)"), est.slice(0, 200));

    const n = await analyses(page);
    await page.click("#actions button.action >> text=/^Distribute G\\(:,BLOCK\\)/");
    await analysedAfter(page, n);
    const after = await text(page);
    check("redblack: the rewrite distributes G(:,BLOCK)", /^\s+DISTRIBUTE G\(:,BLOCK\)$/m.test(after) && !after.includes("DISTRIBUTE G(BLOCK,BLOCK)"),
      after.split("\n").filter((l) => l.includes("DISTRIBUTE")).join(" | "));

    // A routine pasted at the end gets its hints (a paste, as a user
    // would: typing would meet the editor's bracket closing and indent).
    const before = await page.$$eval(".cm-pfls-hint", (x) => x.length);
    await page.click(".cm-content");
    await page.keyboard.press("Control+End");
    const m = await analyses(page);
    await page.evaluate(() => {
      const dt = new DataTransfer();
      dt.setData("text/plain", "\n      SUBROUTINE S(K)\n      DO 5 I = 1, K\n         X = X + 1.0\n    5 CONTINUE\n      END\n");
      document.querySelector(".cm-content").dispatchEvent(new ClipboardEvent("paste", {clipboardData: dt, bubbles: true, cancelable: true}));
    });
    await analysedAfter(page, m);
    const grown = await page.$$eval(".cm-pfls-hint", (x) => x.map((h) => h.textContent));
    check("redblack: a routine typed in gets its hints", grown.length >= before + 2 && grown.some((h) => /K/.test(h)), JSON.stringify(grown.slice(-3)));
    await page.close();
  }

  // An unknown example says so and lists them.
  {
    loaded = false;
    const page = await context.newPage();
    await page.goto(`${base}/?example=nosuch`);
    await page.waitForSelector("body[data-state=ready]", {timeout: 30000});
    loaded = true;
    const status = await page.textContent("#status");
    check("?example=nosuch names the examples", status.includes("nosuch") && status.includes("dgefa.f"), status);
    await page.close();
  }

  const origin = new URL(base).origin;
  const late = requests.filter((r) => r.afterLoad && !r.url.startsWith("data:"));
  check("no request after load", late.length === 0, late.map((r) => r.url).join(", "));
  const foreign = requests.filter((r) => !r.url.startsWith(origin) && !r.url.startsWith("data:"));
  check("every request is to the page's own server", foreign.length === 0, foreign.map((r) => r.url).join(", "));

  // The exported folder, served as files by a plain server that knows no
  // application/wasm (the page then instantiates from the bytes).
  {
    const server = createServer((req, res) => {
      const name = decodeURIComponent(new URL(req.url, "http://x").pathname).replace(/^\/+/, "") || "index.html";
      if (name.includes("..")) return res.writeHead(400).end();
      try {
        const body = readFileSync(join(exportDir, name));
        const type = {".html": "text/html", ".js": "text/javascript", ".css": "text/css"}[extname(name)] || "application/octet-stream";
        res.writeHead(200, {"Content-Type": type}).end(body);
      } catch {
        res.writeHead(404).end();
      }
    });
    await new Promise((r) => server.listen(0, "127.0.0.1", r));
    const {page, errors} = await open(`http://127.0.0.1:${server.address().port}/?example=tridvpk`);
    const d = await page.$$eval(".pfls-diag[data-code=pipeline-granularity]", (x) => x.length);
    check("the exported page runs from a plain static server", d === 1 && errors.length === 0, `${d} pipeline diagnostics; ${errors.join("; ")}`);
    await page.close();
    server.close();
  }
} catch (e) {
  check("the browser test ran to the end", false, e.stack || String(e));
} finally {
  await context.close();
  rmSync(profile, {recursive: true, force: true});
}

const ms = Object.values(firstHints).filter((t) => typeof t === "number");
console.log(`first hints after load, ms: ${Object.entries(firstHints).map(([k, v]) => `${k} ${Math.round(v)}`).join(", ")}; slowest ${Math.round(Math.max(...ms))} (target 2000)`);
console.log(`web: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
