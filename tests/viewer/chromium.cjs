// SPDX-License-Identifier: GPL-2.0
//
// Debian's chromium, headless, driven by playwright-core in a throwaway
// profile: shared by the viewer checks.  launch() exits 2 (the checks'
// "could not drive chromium") when it cannot start; check() runs one check in it
// (tools/screenshots.sh drives launch() and close() for the docs' pictures).
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require('playwright-core');

// How long a step (start, load a page, click, wait for a panel) may take
// before the check calls it hung.  It bounds hangs only: on a busy machine
// (the suite runs two tests at once beside a build) chromium can take tens
// of seconds over a page, and playwright's own 30 s default can fail a check
// that is right (the likely cause of one CI failure, not proven).
const HANG_MS = 300000;

async function launch(name, viewport) {
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), `buildbpf-${name}-`));
	try {
		const browser = await chromium.launchPersistentContext(profile, {
			executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
			headless: true,
			timeout: HANG_MS,
			viewport,
			args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync',
			       '--disable-background-networking', '--disable-component-update'],
		});
		browser.setDefaultTimeout(HANG_MS);
		browser.setDefaultNavigationTimeout(HANG_MS);
		return { browser, profile };
	} catch (e) {
		fs.rmSync(profile, { recursive: true, force: true });
		console.error(`${name}: cannot start chromium: ${e.message.split('\n')[0]}`);
		process.exit(2);
	}
}

async function close({ browser, profile }) {
	await browser.close().catch(() => {});
	fs.rmSync(profile, { recursive: true, force: true });
}

// Runs body(browser) in a fresh chromium, then prints report (its failures set by
// body) as JSON and exits: 0 none, 1 failures, 2 chromium could not be driven.
async function check(name, viewport, report, body) {
	const chrome = await launch(name, viewport);
	let code;
	try {
		await body(chrome.browser);
		code = report.failures.length ? 1 : 0;
	} catch (e) {
		report.failures = [`could not drive chromium: ${e.message.split('\n')[0]}`];
		code = 2;
	} finally {
		await close(chrome);
	}
	report.ok = code === 0;
	// The failures first, on one line: a log cut short still says why.
	if (code) console.log(`${name}: FAILED: ${report.failures.join('; ').slice(0, 600)}`);
	console.log(JSON.stringify(report, null, 1));
	process.exit(code);
}

module.exports = { check, launch, close, HANG_MS };
