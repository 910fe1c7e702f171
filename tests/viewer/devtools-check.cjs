#!/usr/bin/env node
// SPDX-License-Identifier: GPL-2.0
//
// buildbpf's real-viewer check: opens a Chrome trace in the DevTools
// Performance panel bundled with Debian's chromium (headless), loads it the
// way a person does (Performance tab, "Load trace", pick the file), and
// compares what the flame chart holds with what the file asks for.
//
//   node devtools-check.cjs TRACE.json [--screenshot OUT.png]
//        [--expect-track REGEX]... [--expect-slices N]
//        [--expect-order REGEX]... [--expect-slice-count-order]
//
// Fails (exit 1) when the panel has no trace (unparseable file), shows an
// error, lacks a track named like a REGEX or a thread of the file that holds
// slices, or draws another number of slices than the file's X events plus
// matched B/E pairs: the panel silently drops a slice that partially
// overlaps another on its thread, which no JSON-level check notices.
// --expect-order: the tracks named like the REGEXes are drawn in that order
// (top to bottom).  --expect-slice-count-order: the panel orders the thread
// tracks the way its code does for a trace that is not Chrome's own
// (CompatibilityTracksAppender: by number of slices, most first, then
// grouped under the process of the first of them; process_sort_index and
// thread_sort_index are not read), pairs with equal counts left aside.
// The report's "order" lists the thread tracks as drawn, "sortIndexOrder"
// as the file's sort indexes ask (what Perfetto draws).
// Exit 2: usage, or chromium could not be driven.  Prints a JSON report.
//
// Debian's chromium has no chrome://tracing (no catapult) and Perfetto's UI
// is not installable offline; the Performance panel reads the same format.
'use strict';
const fs = require('fs');
const path = require('path');
const { check, HANG_MS } = require('./chromium.cjs');

const USAGE =
	'usage: devtools-check.cjs TRACE.json [--screenshot OUT.png] [--expect-track REGEX]... [--expect-slices N] ' +
	'[--expect-order REGEX]... [--expect-slice-count-order]';

function parseArgs(argv) {
	const opts = { trace: null, screenshot: null, tracks: [], slices: null, order: [], countOrder: false };
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		const value = () => {
			if (i + 1 >= argv.length) usage(`${a} needs a value`);
			return argv[++i];
		};
		if (a === '--screenshot') opts.screenshot = value();
		else if (a === '--expect-track') opts.tracks.push(new RegExp(value()));
		else if (a === '--expect-slices') opts.slices = Number(value());
		else if (a === '--expect-order') opts.order.push(new RegExp(value()));
		else if (a === '--expect-slice-count-order') opts.countOrder = true;
		else if (a.startsWith('--')) usage(`unknown option ${a}`);
		else if (opts.trace === null) opts.trace = a;
		else usage(`unexpected argument ${a}`);
	}
	if (opts.trace === null) usage('no trace given');
	return opts;
}

function usage(why) {
	console.error(`devtools-check: ${why}\n${USAGE}`);
	process.exit(2);
}

// What the file asks the flame chart to hold: one slice per X event and per
// B/E pair matched on its pid/tid, and the names of the threads holding any.
function expectation(file) {
	let doc;
	try {
		doc = JSON.parse(fs.readFileSync(file, 'utf8'));
	} catch (e) {
		return { error: `not a JSON file: ${e.message}` };
	}
	const events = Array.isArray(doc) ? doc : doc && doc.traceEvents;
	if (!Array.isArray(events)) return { error: 'no traceEvents array' };
	const threadNames = new Map();
	const sortIndex = new Map();
	const perThread = new Map();
	const withSlices = new Set();
	const open = new Map();
	let x = 0, pairs = 0;
	const key = (e) => `${e.pid}/${e.tid}`;
	for (const e of events) {
		if (!e || e.ph !== 'M' || !e.args) continue;
		if (e.name === 'thread_name') threadNames.set(key(e), String(e.args.name));
		if (e.name === 'thread_sort_index') sortIndex.set(key(e), Number(e.args.sort_index));
		if (e.name === 'process_sort_index') sortIndex.set(`${e.pid}`, Number(e.args.sort_index));
	}
	const count = (e) => {
		const t = perThread.get(key(e)) || { pid: e.pid, tid: e.tid, slices: 0 };
		t.slices++;
		perThread.set(key(e), t);
	};
	const timed = events.filter((e) => e && (e.ph === 'X' || e.ph === 'B' || e.ph === 'E'));
	timed.sort((a, b) => a.ts - b.ts);
	for (const e of timed) {
		if (e.ph === 'X') {
			x++;
			withSlices.add(key(e));
			count(e);
			continue;
		}
		const stack = open.get(key(e)) || [];
		open.set(key(e), stack);
		if (e.ph === 'B') {
			stack.push(e);
		} else if (stack.length) {
			stack.pop();
			pairs++;
			withSlices.add(key(e));
			count(e);
		}
	}
	const tracks = [...withSlices].map((k) => threadNames.get(k)).filter((n) => n !== undefined);
	// The threads as the file's sort indexes order them: process, then thread.
	const idx = (k) => (sortIndex.has(k) ? sortIndex.get(k) : 0);
	const threads = [...perThread.entries()].map(([k, t]) => ({ ...t, name: threadNames.get(k) ?? `Thread ${t.tid}` }));
	threads.sort((a, b) => idx(`${a.pid}`) - idx(`${b.pid}`) || a.pid - b.pid ||
			       idx(`${a.pid}/${a.tid}`) - idx(`${b.pid}/${b.tid}`) || a.tid - b.tid);
	return { slices: x + pairs, x, pairs, tracks: [...new Set(tracks)], threads };
}

// Runs in the page: what the Performance panel holds now.  Its flame chart's
// groups are the tracks; an entry's level says which track it is drawn in.
async function panelState() {
	const timeline = await import('./panels/timeline/timeline.js');
	const panel = timeline.TimelinePanel.TimelinePanel.instance();
	const texts = [];
	const walk = (root) => {
		texts.push(root.textContent || '');
		for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot);
	};
	walk(document);
	const error = texts.join(' ').match(/(Loading failed|Recording failed|failed to load|Malformed|Error while)[^{}]{0,80}/i);
	let provider = null, data = null;
	try {
		provider = panel.getFlameChart().getMainDataProvider();
		data = provider.timelineData();
	} catch (e) {
		/* no trace yet */
	}
	const state = { loaded: panel.hasActiveTrace() && !!(data && data.groups), error: error ? error[0] : null };
	if (!state.loaded) return state;
	const firstLevels = [...new Set(data.groups.map((g) => g.startLevel))].sort((a, b) => a - b);
	const counts = new Map();
	for (const level of data.entryLevels) counts.set(level, (counts.get(level) || 0) + 1);
	state.tracks = data.groups.map((g) => {
		const end = firstLevels.find((l) => l > g.startLevel);
		let slices = 0;
		for (const [level, n] of counts)
			if (level >= g.startLevel && (end === undefined || level < end)) slices += n;
		return { name: g.name, slices };
	});
	state.slices = data.entryLevels.length;
	return state;
}

// Opens the Performance panel, loads the file through its file chooser.
async function loadTrace(page, file) {
	await page.goto('devtools://devtools/bundled/trace_app.html', { timeout: HANG_MS });
	const tab = page.getByText('Performance', { exact: true }).first();
	await tab.waitFor({ timeout: HANG_MS });
	// trace_app opens with a "debugging connection was closed" dialog, on a
	// busy machine seconds late: while it covers the tab a click waits for
	// it.  Each try closes it and clicks for 5 s, until HANG_MS have passed.
	let t0 = Date.now();
	for (let attempt = 0; ; attempt++) {
		await page.waitForTimeout(attempt ? 250 : 1000);
		await page.keyboard.press('Escape');
		const err = await tab.click({ timeout: 5000 }).then(() => null, (e) => e);
		if (!err) break;
		if (Date.now() - t0 >= HANG_MS) throw err;
	}
	const load = page.locator('[aria-label="Load trace…"], [aria-label="Load profile…"]').first();
	await load.waitFor({ state: 'visible', timeout: HANG_MS });
	// The panel may still be starting: the button does nothing then.  Try
	// again (every fourth time by the keyboard) until HANG_MS have passed; a
	// click the button is not ready for fails its try, not the check.
	t0 = Date.now();
	for (let attempt = 0; attempt < 4 || Date.now() - t0 < HANG_MS; attempt++) {
		const [chooser] = await Promise.all([
			page.waitForEvent('filechooser', { timeout: 5000 }).catch(() => null),
			attempt % 4 < 3 ? load.click({ timeout: 5000 }).catch(() => null) : page.keyboard.press('Control+O'),
		]);
		if (chooser) return chooser.setFiles(file);
	}
	throw new Error('the Performance panel opened no file chooser');
}

// Polls until the panel shows the trace or an error (HANG_MS at most); waits a
// little more for an error dialog that can follow the model.
async function settle(page) {
	const t0 = Date.now();
	let state = { loaded: false, error: null };
	while (Date.now() - t0 < HANG_MS) {
		state = await page.evaluate(panelState);
		if (state.loaded || state.error) break;
		await page.waitForTimeout(250);
	}
	await page.waitForTimeout(500);
	const later = await page.evaluate(panelState);
	return later.loaded || later.error ? later : state;
}

// Every track expanded, the sidebar and the shortcuts popover closed: what a
// person would look at.
async function screenshot(page, out) {
	await page
		.evaluate(async () => {
			const roots = [];
			const walk = (root) => {
				roots.push(root);
				for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot);
			};
			walk(document);
			for (const root of roots) {
				const hide = root.querySelector('[aria-label="Hide sidebar"]');
				if (hide) hide.click();
			}
			for (const root of roots.reverse()) {
				if (!(root.textContent || '').includes('Keyboard shortcuts')) continue;
				const close = root.querySelector('[aria-label="Close"]');
				if (close) close.click();
			}
			const timeline = await import('./panels/timeline/timeline.js');
			const chart = timeline.TimelinePanel.TimelinePanel.instance().getFlameChart().getMainFlameChart();
			const groups = (chart.rawTimelineData && chart.rawTimelineData.groups) || [];
			chart.bulkExpandGroups(groups.map((_, i) => i));
		})
		.catch(() => {});
	await page.waitForTimeout(700);
	await page.screenshot({ path: out });
}

// The thread tracks as drawn, top to bottom, matched with the file's threads
// by name: the panel names a track "NAME (tid)" and a process "NAME (pid)".
function threadOrder(tracks, threads) {
	const out = [];
	for (const t of tracks || []) {
		const m = t.name.match(/^(.*) \((\d+)\)$/);
		if (!m) continue;
		const thread = threads.find((x) => x.name === m[1] && x.tid === Number(m[2]));
		if (thread && !out.includes(thread)) out.push(thread);
	}
	return out;
}

function verdict(expected, state, opts) {
	const failures = [];
	if (expected.error) failures.push(`the file: ${expected.error}`);
	if (state.error) failures.push(`the viewer shows an error: ${state.error.replace(/\s+/g, ' ').trim()}`);
	if (!state.loaded) {
		failures.push('the viewer has no trace loaded (unparseable file, or nothing it can draw)');
		return failures;
	}
	const names = state.tracks.map((t) => t.name);
	if (state.slices === 0) failures.push('the viewer draws no slice');
	if (!expected.error && state.slices !== expected.slices)
		failures.push(
			`slice count: the file holds ${expected.slices} (${expected.x} X, ${expected.pairs} B/E pairs), ` +
				`the viewer draws ${state.slices}` +
				(state.slices < expected.slices ? ': it dropped some (partially overlapping slices on one thread?)' : ''),
		);
	if (opts.slices !== null && state.slices !== opts.slices)
		failures.push(`slice count: expected ${opts.slices}, the viewer draws ${state.slices}`);
	for (const re of opts.tracks)
		if (!names.some((n) => re.test(n))) failures.push(`no track named like ${re}`);
	const order = threadOrder(state.tracks, expected.threads || []);
	const found = opts.order.map((re) => order.findIndex((t) => re.test(t.name)));
	const drawn = order.map((t) => t.name).join(', ');
	for (let k = 0; k < opts.order.length; k++) {
		if (found[k] < 0) failures.push(`order: no thread track named like ${opts.order[k]}`);
		else if (k > 0 && found[k - 1] >= 0 && found[k] < found[k - 1])
			failures.push(`order: ${opts.order[k]} is drawn above ${opts.order[k - 1]} (drawn: ${drawn})`);
	}
	if (opts.countOrder)
		for (let i = 0; i < order.length; i++)
			for (let j = i + 1; j < order.length; j++)
				if (order[i].slices < order[j].slices && order[i].pid === order[j].pid)
					failures.push(`order: '${order[j].name}' (${order[j].slices} slices) is drawn below ` +
						      `'${order[i].name}' (${order[i].slices})`);
	for (const thread of expected.tracks || [])
		if (!names.some((n) => n === thread || n.startsWith(`${thread} `)))
			failures.push(`no track for thread '${thread}', which holds slices`);
	return failures;
}

async function main() {
	const opts = parseArgs(process.argv.slice(2));
	const expected = expectation(opts.trace);
	const report = { trace: path.resolve(opts.trace), expected };
	report.failures = [];
	await check('devtools-check', { width: 1600, height: 900 }, report, async (browser) => {
		const page = browser.pages()[0] || (await browser.newPage());
		const pageErrors = [];
		page.on('pageerror', (e) => pageErrors.push(e.message.slice(0, 200)));
		await loadTrace(page, opts.trace);
		const state = await settle(page);
		report.viewer = { loaded: state.loaded, slices: state.slices || 0, tracks: state.tracks || [] };
		report.order = threadOrder(state.tracks, expected.threads || []).map((t) => `${t.name} (${t.slices})`);
		report.sortIndexOrder = (expected.threads || []).map((t) => t.name);
		report.pageErrors = pageErrors;
		report.failures = verdict(expected, state, opts);
		if (opts.screenshot) {
			await screenshot(page, opts.screenshot);
			report.screenshot = path.resolve(opts.screenshot);
		}
	});
}

main();
