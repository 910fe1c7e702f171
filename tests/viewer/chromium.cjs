// SPDX-License-Identifier: GPL-2.0
//
// Debian's chromium, headless, driven by playwright-core in a throwaway
// profile: shared by the viewer checks.  launch() exits 2 (the checks'
// "could not drive chromium") when it cannot start.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require('playwright-core');

async function launch(name, viewport) {
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), `buildbpf-${name}-`));
	try {
		const browser = await chromium.launchPersistentContext(profile, {
			executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
			headless: true,
			viewport,
			args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync',
			       '--disable-background-networking', '--disable-component-update'],
		});
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

module.exports = { launch, close };
