// SPDX-License-Identifier: GPL-2.0
//
// The pictures of docs/html-report.md, from --html pages, in Debian's
// chromium at the docs' width (tools/screenshots.sh runs it):
//
//   node screenshots.cjs OUT_DIR NAME=PAGE.html[,strip] ...
//
// For each page, OUT_DIR/html-report-NAME.png (the page's top: the answers),
// html-report-NAME-path.png (the critical path's table at the top) and, with
// ",strip", html-report-NAME-strip.png (the mouse over the CPU strip, its
// tooltip shown).  Exits 2 when chromium cannot be driven, 1 on a page it
// cannot picture (no critical path, no CPU strip).
'use strict';
const path = require('path');
const { launch, close } = require('./chromium.cjs');

const WIDTH = 1400, HEIGHT = 1300;
const USAGE = 'usage: screenshots.cjs OUT_DIR NAME=PAGE.html[,strip] ...';

// Two animation frames: by the second, the page's mouse handlers have run.
const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

// Scrolls the element of selector to the top of the view; false when the page has none.
async function scrollTo(page, selector) {
	return page.evaluate((sel) => {
		const el = document.querySelector(sel);
		if (!el) return false;
		window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 8);
		return true;
	}, selector);
}

// Moves the mouse over the CPU strip at 45 % of the timeline's width: a window of the strip whose
// title names the processes alive in it.  False when the page has no strip.
async function overStrip(page) {
	const at = await page.evaluate(() => {
		/* The page moves each <title> into data-tip, for its own tooltip. */
		const rects = [...document.querySelectorAll('.bb-timeline rect[data-tip]')].filter((r) =>
			/processes alive longest in it/.test(r.getAttribute('data-tip')));
		if (!rects.length) return null;
		const el = rects[Math.floor(rects.length * 0.45)];
		el.scrollIntoView({ block: 'center' });
		const r = el.getBoundingClientRect();
		return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
	});
	if (!at) return false;
	await page.mouse.move(at.x, at.y);
	await frames(page);
	return true;
}

async function picture(browser, out, spec, failures) {
	const [name, rest] = spec.split('=');
	const [page_path, ...opts] = (rest || '').split(',');
	const shot = (suffix) => path.join(out, `html-report-${name}${suffix}.png`);
	const page = await browser.newPage();

	await page.goto('file://' + path.resolve(page_path));
	await page.screenshot({ path: shot('') });
	if (await scrollTo(page, '#critical-path')) await page.screenshot({ path: shot('-path') });
	else failures.push(`${name}: no critical path`);
	if (opts.includes('strip')) {
		await scrollTo(page, '#timeline');
		if (await overStrip(page)) await page.screenshot({ path: shot('-strip') });
		else failures.push(`${name}: no CPU strip`);
	}
	await page.close();
}

async function main() {
	const [out, ...specs] = process.argv.slice(2);
	const failures = [];

	if (!out || !specs.length || specs.some((s) => !/^[\w.-]+=.+/.test(s))) {
		console.error(USAGE);
		process.exit(2);
	}
	const chrome = await launch('screenshots', { width: WIDTH, height: HEIGHT });
	try {
		for (const spec of specs) await picture(chrome.browser, out, spec, failures);
	} finally {
		await close(chrome);
	}
	for (const f of failures) console.error(`screenshots: ${f}`);
	process.exit(failures.length ? 1 : 0);
}

main().catch((e) => {
	console.error(`screenshots: could not drive chromium: ${e.message.split('\n')[0]}`);
	process.exit(2);
});
