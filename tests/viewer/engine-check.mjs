#!/usr/bin/env node
// SPDX-License-Identifier: GPL-2.0
//
// The same trace through the DevTools Performance panel's own trace engine
// (@paulirish/trace_engine), without a browser, in about a second:
//
//   node engine-check.mjs TRACE.json
//
// Fails (exit 1) when the engine's per-thread slice trees keep fewer slices
// than the file's X events plus matched B/E pairs (it drops badly nested
// ones), when an event sits at ts 0 (the panel leaves it outside the trace
// bounds), when the bounds end before a slice does, or when the file does
// not parse.  Prints a JSON report with each thread's tree.
import fs from 'node:fs';
import * as TraceEngine from '@paulirish/trace_engine';

// The engine measures with DOMRect, which Node lacks.
globalThis.DOMRect ??= class DOMRect {
	constructor(x = 0, y = 0, width = 0, height = 0) {
		Object.assign(this, { x, y, width, height, left: x, top: y, right: x + width, bottom: y + height });
	}
};

const file = process.argv[2];
if (!file || process.argv.length > 3) {
	console.error('usage: engine-check.mjs TRACE.json');
	process.exit(2);
}
const report = { trace: file, failures: [] };
const finish = () => {
	console.log(JSON.stringify(report, null, 1));
	process.exit(report.failures.length ? 1 : 0);
};

let events;
try {
	const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
	events = Array.isArray(doc) ? doc : doc && doc.traceEvents;
} catch (e) {
	report.failures.push(`not a JSON file: ${e.message}`);
	finish();
}
if (!Array.isArray(events)) {
	report.failures.push('no traceEvents array');
	finish();
}

// What the file holds: slices (X, matched B/E), where they end, ts-0 events.
let slices = 0, zeroTs = 0, lastEnd = -Infinity;
const open = new Map();
for (const e of [...events].sort((a, b) => a.ts - b.ts)) {
	if (e.ph === 'M' || typeof e.ts !== 'number') continue;
	if (e.ts === 0) zeroTs++;
	lastEnd = Math.max(lastEnd, e.ts + (e.ph === 'X' ? e.dur || 0 : 0));
	if (e.ph === 'X') {
		slices++;
	} else if (e.ph === 'B' || e.ph === 'E') {
		const key = `${e.pid}/${e.tid}`;
		const stack = open.get(key) || [];
		open.set(key, stack);
		if (e.ph === 'B') stack.push(e);
		else if (stack.length) stack.pop(), slices++;
	}
}

const processor = TraceEngine.Processor.TraceProcessor.createWithAllHandlers();
await processor.parse(events, { isFreshRecording: false, isCPUProfile: false });
const parsed = processor.parsedTrace ?? processor.data;
report.bounds = parsed.Meta.traceBounds;
report.threads = [];
let kept = 0;
for (const [pid, proc] of parsed.Renderer.processes) {
	for (const [tid, thread] of proc.threads) {
		const lines = [];
		const walk = (node, depth) => {
			kept++;
			const e = node.entry;
			lines.push(`${'  '.repeat(depth)}${e.name} @${e.ts}${e.dur === undefined ? '' : ` +${e.dur}`}`);
			for (const child of node.children) walk(child, depth + 1);
		};
		for (const root of thread.tree?.roots ?? []) walk(root, 0);
		report.threads.push({ pid, tid, name: thread.name ?? null, tree: lines });
	}
}
report.slices = { file: slices, engine: kept };
if (kept < slices)
	report.failures.push(`the engine kept ${kept} of ${slices} slices (partially overlapping slices on one thread?)`);
if (zeroTs) report.failures.push(`${zeroTs} event(s) at ts 0: the panel leaves them outside the trace bounds`);
if (report.bounds && lastEnd > report.bounds.max)
	report.failures.push(`the trace bounds end at ${report.bounds.max}, a slice at ${lastEnd}`);
finish();
