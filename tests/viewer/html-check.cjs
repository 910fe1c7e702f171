#!/usr/bin/env node
// SPDX-License-Identifier: GPL-2.0
//
// buildbpf's HTML report check: opens a page written by --html in Debian's
// chromium (headless) from file://, as a person opens a CI artifact, and
// checks what a person would see.  Nothing in it waits on the clock: chromium
// has no time limit to start or load (a busy machine is slow, not wrong), and
// after each hover or click the check waits two animation frames, the point
// by which chromium has dispatched the (frame-aligned) mouse event.
//
//   node html-check.cjs PAGE.html [--summary SUMMARY.json] [--screenshot OUT.png]
//
// Fails (exit 1) when the page logs a console error or throws, asks for
// anything but itself (a font, a script, an image, any URL), lacks its
// answers or timeline, or, with --summary (the same build's --summary-json),
// when its tables do not hold the summary's figures: the answers' rows
// (answers.brief: question, words and each figure), wall, CPU, CPUs,
// utilisation, the top steps by wall, CPU and peak RSS (pid and value), the
// critical path's steps the summary keeps (pid and time held), the steps
// outlined as the critical path on the timeline (each the summary's, pid and
// time held) and the what-if's predicted walls.  It also hovers a process and a process's label
// (the tooltip must name its pid) and zooms the timeline (the picture must
// widen).  Exit 2: usage, or chromium could not be driven.  Prints a JSON
// report.
'use strict';
const fs = require('fs');
const path = require('path');
const { check } = require('./chromium.cjs');

const USAGE = 'usage: html-check.cjs PAGE.html [--summary SUMMARY.json] [--screenshot OUT.png]';

function usage(why) {
	console.error(`html-check: ${why}\n${USAGE}`);
	process.exit(2);
}

function parseArgs(argv) {
	const opts = { page: null, summary: null, screenshot: null };
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		const value = () => {
			if (i + 1 >= argv.length) usage(`${a} needs a value`);
			return argv[++i];
		};
		if (a === '--summary') opts.summary = value();
		else if (a === '--screenshot') opts.screenshot = value();
		else if (a.startsWith('--')) usage(`unknown option ${a}`);
		else if (opts.page === null) opts.page = a;
		else usage(`unexpected argument ${a}`);
	}
	if (opts.page === null) usage('no page given');
	return opts;
}

// Runs in the page: every table as rows of cell texts, by its section's id.
function pageState() {
	const tables = {};
	for (const sec of document.querySelectorAll('section[id]')) {
		const t = sec.querySelector('table');
		if (!t) continue;
		tables[sec.id] = [...t.querySelectorAll('tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent));
	}
	const svg = document.querySelector('.bb-timeline svg');
	const answers = [...document.querySelectorAll('section[id$="answers"] tr[data-answer]')].map((tr) => ({
		id: tr.dataset.answer,
		question: tr.cells[0].textContent,
		text: tr.cells[1].textContent,
		figures: Object.fromEntries([...tr.cells[2].querySelectorAll('[data-key]')].map((f) => [f.dataset.key, f.textContent])),
	}));
	// Each critical-path outline (around its lane's band) and the pid of the process it outlines:
	// the innermost process rect in that band whose span holds the outline's.
	const procs = svg ? [...svg.querySelectorAll('rect.n[data-tip]')] : [];
	const num = (el, a) => parseFloat(el.getAttribute(a));
	const outlined = (svg ? [...svg.querySelectorAll('.crit rect')] : []).map((o) => {
		const x = num(o, 'x'), y = num(o, 'y'), w = num(o, 'width'), h = num(o, 'height');
		let p = null;
		for (const r of procs)
			if (num(r, 'y') >= y && num(r, 'y') + num(r, 'height') <= y + h && num(r, 'x') <= x + 0.02 && num(r, 'x') + num(r, 'width') >= x + w - 0.02 &&
			    (!p || num(r, 'width') < num(p, 'width'))) p = r; /* the innermost: a runner spans its steps */
		const pid = p && /pid (\d+)/.exec(p.getAttribute('data-tip'));
		return { pid: pid ? Number(pid[1]) : null, tip: o.getAttribute('data-tip') || '' };
	});
	return {
		tables,
		answers,
		outlined,
		tips: svg ? svg.querySelectorAll('[data-tip]').length : 0,
		titlesLeft: svg ? svg.querySelectorAll('title').length : -1,
		svgWidth: svg ? svg.getBoundingClientRect().width : 0,
		scripts: document.scripts.length,
	};
}

// Moves the mouse over a timeline element, scrolled into view: 'process', the largest process whose
// tooltip names a pid, 'label', the first process label, or 'outline', the left edge of the widest
// critical-path outline, whose stroke lies over the process it outlines.  The tooltip's text ('' hidden),
// or null when there is no such element.
async function tipOver(page, what) {
	const box = await page.evaluate((kind) => {
		let el = null, area = 0;
		if (kind === 'label') el = document.querySelector('.bb-timeline text.p');
		else if (kind === 'outline') {
			for (const e of document.querySelectorAll('.bb-timeline .crit rect')) {
				const r = e.getBoundingClientRect();
				if (r.width > area) { area = r.width; el = e; }
			}
			if (!el) return null;
			el.scrollIntoView({ block: 'center', inline: 'center' });
			const r = el.getBoundingClientRect();
			/* On the stroke, off the path's line through the middle. */
			return { x: r.x + 0.5, y: r.y + r.height / 2 + 3 };
		} else
			for (const e of document.querySelectorAll('.bb-timeline rect.n[data-tip]')) {
				const r = e.getBoundingClientRect();
				if (r.width * r.height > area && /pid \d+/.test(e.getAttribute('data-tip'))) { area = r.width * r.height; el = e; }
			}
		if (!el) return null;
		el.scrollIntoView({ block: 'center', inline: 'center' });
		const r = el.getBoundingClientRect();
		return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
	}, what);
	if (!box) return null;
	await page.mouse.move(box.x, box.y);
	await frames(page);
	return page.evaluate(() => { const t = document.getElementById('bb-tip'); return t.hidden ? '' : t.textContent; });
}

// Two animation frames: chromium dispatches a mouse move at the start of a frame, so by the
// second its handlers have run, however slow the machine.
const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

const sec = (text) => parseFloat(text);
// "3.2 MiB" in KiB.
const kib = (text) => { const m = /([\d.]+) (B|KiB|MiB|GiB)$/.exec(text); return m ? parseFloat(m[1]) * { B: 1 / 1024, KiB: 1, MiB: 1024, GiB: 1048576 }[m[2]] : NaN; };
const near = (a, b, tol) => Math.abs(a - b) <= tol + 1e-9;

// The answers' rows are the summary's answers.brief, in order: question, words, and each figure
// as the page words it (seconds, percent, CPUs or a count).
function compareAnswers(rows, brief, failures) {
	if (rows.length !== brief.length) failures.push(`answers: ${rows.length} rows, summary ${brief.length}`);
	brief.forEach((b, i) => {
		const r = rows[i] || { figures: {} };
		if (r.id !== b.id) failures.push(`answers[${i}]: ${r.id}, summary ${b.id}`);
		if (r.question !== b.question) failures.push(`answers[${i}] question: '${r.question}', summary '${b.question}'`);
		if (r.text !== b.text) failures.push(`answers[${i}] (${b.id}): page '${r.text}', summary '${b.text}'`);
		for (const [key, v] of Object.entries(b.figures)) {
			const shown = r.figures[key];
			const got = shown === undefined ? NaN : key.endsWith('_kb') ? kib(shown) : parseFloat(shown.replace(/^[^\d]*(?=\d)/, ''));
			const expect = key.endsWith('_ms') ? v / 1000 : key.endsWith('_share') ? v * 100 : v;
			const tol = key.endsWith('_ms') ? 0.0006 : key.endsWith('_share') ? 0.051 : key.endsWith('_kb') ? v * 0.051 :
				Number.isInteger(v) ? 0 : 0.0051;
			if (!near(got, expect, tol)) failures.push(`answers[${i}] (${b.id}) ${key}: page '${shown}', summary ${v}`);
		}
	});
	if (!rows.some((r) => r.id === 'parallel' && /\S/.test(r.text))) failures.push('no answer to "parallel?"');
}

// Every step outlined as the critical path on the timeline is one the summary has on it (by pid),
// outlined for the time the summary says it held the path.  A path the summary lists only in part
// (count > its processes) may outline steps it left out: those are not compared.
function compareOutlines(outlined, chain, failures) {
	if (chain.estimate) return; /* no graph: no path is drawn */
	const held = new Map();
	for (const p of chain.processes)
		if (p.path_from_ms !== undefined) held.set(p.pid, (held.get(p.pid) || []).concat((p.path_to_ms - p.path_from_ms) / 1000));
	const whole = chain.count === chain.processes.length;
	if (!outlined.length && [...held.values()].flat().some((s) => s > 0)) failures.push('timeline: no critical-path step outlined');
	outlined.forEach((o, i) => {
		if (o.pid === null) { failures.push(`timeline: critical-path outline ${i} is on no process ('${o.tip}')`); return; }
		const m = /held it ([\d.]+) s$/.exec(o.tip);
		/* The summary leaves out a step that held the path under 1 ms (AUDIT_STEP_MIN_NS) with no
		 * file to the next; on a short build its outline can still be wide enough to draw. */
		const unlisted = m && parseFloat(m[1]) < 0.0015 && !(held.get(o.pid) || []).some((s) => near(parseFloat(m[1]), s, 0.0011));
		if (unlisted) return;
		if (!held.has(o.pid)) { if (whole) failures.push(`timeline: outlined pid ${o.pid} is not on the summary's critical path`); return; }
		if (!m || !held.get(o.pid).some((s) => near(parseFloat(m[1]), s, 0.0011)))
			failures.push(`timeline: outlined pid ${o.pid} ('${o.tip}'), summary held ${held.get(o.pid).join(', ')} s`);
	});
}

// The figures the summary holds and the page must show, each a failure text or nothing.
function compare(state, sum) {
	const failures = [];
	const t = state.tables;
	compareAnswers(state.answers, sum.answers.brief, failures);
	compareOutlines(state.outlined, sum.critical_chain, failures);
	const figures = Object.fromEntries((t.figures || []).map((r) => [r[0], r[1]]));
	const want = (name, got, expect, tol) => {
		if (got === undefined || !near(got, expect, tol)) failures.push(`${name}: page ${got}, summary ${expect}`);
	};
	want('wall', figures.wall && sec(figures.wall), sum.wall_ms / 1000, 0.0006);
	want('CPU time', figures['CPU time'] && sec(figures['CPU time']), sum.cpu_ms / 1000, 0.0006);
	want('CPUs', figures.CPUs && Number(figures.CPUs), sum.cpu_count, 0);
	want('utilisation', figures.utilisation && parseFloat(figures.utilisation), sum.utilisation * 100, 0.051);
	const tops = [['top-wall', sum.top.wall, 'ms'], ['top-cpu', sum.top.cpu, 'ms'], ['top-rss', sum.top.peak_rss, 'kb']];
	for (const [id, list, unit] of tops) {
		const rows = t[id] || [];
		if (rows.length !== list.length) failures.push(`${id}: ${rows.length} rows, summary ${list.length}`);
		list.forEach((item, i) => {
			const row = rows[i] || [];
			if (Number(row[1]) !== item.pid) failures.push(`${id}[${i}]: pid ${row[1]}, summary ${item.pid}`);
			if (unit === 'ms') want(`${id}[${i}]`, row[2] && sec(row[2]), item.ms / 1000, 0.0006);
			else want(`${id}[${i}]`, row[2] && parseFloat(row[2]), item.kb / 1024, 0.051);
		});
	}
	// The path's listed steps: "#" is the position in the path (1-based).  A path the summary holds
	// whole is compared row by row; else (it keeps the 64 longest of count) a row is compared with
	// the summary's entry of the same pid, when it kept one.
	const chain = sum.critical_chain.processes;
	const whole = sum.critical_chain.count === chain.length;
	const pathRows = t['critical-path'] || [];
	if (!pathRows.length && chain.length) failures.push('critical path: no rows');
	for (const row of pathRows) {
		if (Number(row[0]) > sum.critical_chain.count) failures.push(`critical path: step ${row[0]} past the path's end`);
		const p = whole ? chain[Number(row[0]) - 1] : chain.find((c) => c.pid === Number(row[2]));
		if (!p) {
			if (whole) failures.push(`critical path step ${row[0]}: not in the summary`);
			continue;
		}
		if (Number(row[2]) !== p.pid) failures.push(`critical path step ${row[0]}: pid ${row[2]}, summary ${p.pid}`);
		if (p.path_from_ms !== undefined && whole)
			want(`critical path step ${row[0]} held`, sec(row[5]), (p.path_to_ms - p.path_from_ms) / 1000, 0.0011);
	}
	if (sum.what_if) {
		const rows = t['what-if'] || [];
		if (rows.length !== sum.what_if.rows.length) failures.push(`what-if: ${rows.length} rows, summary ${sum.what_if.rows.length}`);
		sum.what_if.rows.forEach((r, i) => want(`what-if[${i}]`, rows[i] && sec(rows[i][2]), r.wall_ms / 1000, 0.0006));
	}
	return failures;
}

async function main() {
	const opts = parseArgs(process.argv.slice(2));
	const pageUrl = 'file://' + path.resolve(opts.page);
	const report = { page: path.resolve(opts.page), consoleErrors: [], pageErrors: [], requests: [] };
	report.failures = [];
	await check('html-check', { width: 1400, height: 1600 }, report, async (browser) => {
		const page = browser.pages()[0] || (await browser.newPage());
		page.on('console', (m) => { if (m.type() === 'error') report.consoleErrors.push(m.text().slice(0, 200)); });
		page.on('pageerror', (e) => report.pageErrors.push(e.message.slice(0, 200)));
		page.on('request', (r) => { if (r.url() !== pageUrl && !r.url().startsWith('data:')) report.requests.push(r.url()); });
		await page.goto(pageUrl, { waitUntil: 'load' });
		const before = await page.evaluate(pageState);
		const failures = [];
		if (!before.answers.some((r) => r.question === 'parallel?')) failures.push('no answers');
		if (!before.tips) failures.push('no process in the timeline has a tooltip');
		if (before.titlesLeft) failures.push(`${before.titlesLeft} <title>s left: a native tooltip would show twice`);
		if (before.scripts !== 1) failures.push(`${before.scripts} scripts; only the page's own may run`);
		// Hover the largest process, scrolled into view: the tooltip shows its text, which names a pid.
		const tip = await tipOver(page, 'process');
		report.tooltip = tip;
		if (tip === null && before.tips) failures.push('no process to hover');
		else if (tip !== null && !/pid \d+/.test(tip)) failures.push(`hovering a process shows no tooltip with its pid ('${tip}')`);
		// A critical-path outline's stroke lies over a process: over it the process's tooltip comes
		// first (the outline's may follow), wherever the path's steps happen to start.
		const outlineTip = await tipOver(page, 'outline');
		if (outlineTip !== null && !/^[^\n]*pid \d+/.test(outlineTip))
			failures.push(`hovering a critical-path outline over a process shows no tooltip led by its pid ('${outlineTip}')`);
		// A process's label sits on it: over the label the process's tooltip shows all the same.
		const labelTip = await tipOver(page, 'label');
		if (labelTip !== null && !/pid \d+/.test(labelTip)) failures.push(`hovering a process's label shows no tooltip ('${labelTip}')`);
		if (opts.screenshot) {
			await page.mouse.move(0, 0);
			await page.evaluate(() => window.scrollTo(0, 0));
			await page.screenshot({ path: opts.screenshot, fullPage: true });
			report.screenshot = path.resolve(opts.screenshot);
		}
		await page.click('.bb-timeline .bb-in');
		await frames(page);
		const after = await page.evaluate(pageState);
		if (!(after.svgWidth > before.svgWidth * 1.5)) failures.push(`zoom in: width ${before.svgWidth} -> ${after.svgWidth}`);
		if (opts.summary) failures.push(...compare(before, JSON.parse(fs.readFileSync(opts.summary, 'utf8'))));
		for (const e of report.consoleErrors) failures.push(`console error: ${e}`);
		for (const e of report.pageErrors) failures.push(`page error: ${e}`);
		for (const r of report.requests) failures.push(`fetched ${r}`);
		report.tables = Object.fromEntries(Object.entries(before.tables).map(([k, v]) => [k, v.length]));
		report.failures = failures;
	});
}

main();
