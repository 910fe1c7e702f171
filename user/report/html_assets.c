// SPDX-License-Identifier: GPL-2.0
/*
 * The HTML report's style and script, inline in every page: no file, font
 * or URL is fetched.  Class names start with "bb-": the inline SVG's own
 * style applies to the whole page and uses short ones.
 */
#include <stdio.h>
#include <string.h>
#include "report/html_assets.h"
#include "util/sha256.h"

const char html_assets_style[] =
	"body{font-family:sans-serif;margin:0 24px 40px;color:#222;max-width:1700px}"
	"h1{font-size:20px;margin:16px 0 4px}h2{font-size:16px;margin:24px 0 6px;border-bottom:1px solid #ddd}"
	"h3{font-size:14px;margin:14px 0 4px}"
	"pre.bb-answers{background:#f6f8fa;border:1px solid #ddd;padding:10px;overflow-x:auto;font-size:13px}"
	"table.bb-t{border-collapse:collapse;font-size:13px;margin:4px 0}"
	"table.bb-t th,table.bb-t td{border:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}"
	"table.bb-t td.bb-r,table.bb-t th.bb-r{text-align:right;font-variant-numeric:tabular-nums}"
	"table.bb-t th{background:#f0f0f0}.bb-note{color:#666;font-size:12px;font-style:italic}"
	".bb-grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(420px,1fr));gap:0 24px}"
	".bb-timeline .bb-scroll{overflow:auto;max-height:80vh;border:1px solid #ddd}"
	".bb-timeline svg{display:block;width:100%;height:auto}"
	".bb-zoom button{margin-right:4px}.bb-zoom span{color:#666;font-size:12px;margin-left:6px}"
	"#bb-tip{position:fixed;pointer-events:none;background:#fffbe6;border:1px solid #aaa;padding:4px 6px;"
	"font-size:12px;white-space:pre-wrap;max-width:640px;z-index:10;box-shadow:0 1px 4px #0003}"
	".bb-side{min-width:0}"
	"table.bb-answers{width:100%}table.bb-answers td.bb-q{font-weight:bold;white-space:nowrap}"
	"table.bb-answers td.bb-figs{white-space:nowrap}.bb-fig{display:block;cursor:help}"
	"table.bb-answers tr.bb-verbose{color:#555}"
	".bb-legend{font-size:12px;color:#444;margin:4px 0}.bb-legend b{display:inline-block;width:18px;height:9px;"
	"border:2px solid #111;vertical-align:middle;margin-right:4px}"
	/* The serial phases shade the lanes from above, the critical path runs through their middle and
	 * labels sit on them: a process under any of them keeps its tooltip. */
	".bb-timeline .serial,.bb-timeline .crit polyline,.bb-timeline text{pointer-events:none}";

/*
 * Zoom: the buttons or ctrl+wheel scale the timeline's picture in its
 * scrolled box, keeping the point under the mouse in place.  Tooltip: each
 * <title> of the picture becomes a data-tip, shown as text (textContent:
 * never parsed as markup) next to the mouse.  A critical-path outline is
 * drawn over the processes and its stroke catches the mouse: over it the
 * process under it comes first, then the outline's line, so the process's
 * tooltip does not depend on where the path's steps happen to start.
 */
const char html_assets_script[] =
	"(function(){'use strict';"
	"var tip=document.getElementById('bb-tip');"
	"document.querySelectorAll('.bb-timeline').forEach(function(box){"
	"var scroll=box.querySelector('.bb-scroll'),svg=scroll&&scroll.querySelector('svg'),"
	"level=box.querySelector('.bb-level'),zoom=1;if(!svg)return;"
	"svg.querySelectorAll('title').forEach(function(t){t.parentNode.setAttribute('data-tip',t.textContent);"
	"t.remove();});"
	"function set(z,fx){var w=scroll.scrollWidth,x=scroll.scrollLeft+fx*scroll.clientWidth;"
	"zoom=Math.max(1,Math.min(64,z));svg.style.width=(zoom*100)+'%';"
	"scroll.scrollLeft=x/w*scroll.scrollWidth-fx*scroll.clientWidth;level.textContent=zoom+'x';}"
	"box.querySelector('.bb-in').addEventListener('click',function(){set(zoom*2,0.5);});"
	"box.querySelector('.bb-out').addEventListener('click',function(){set(zoom/2,0.5);});"
	"box.querySelector('.bb-reset').addEventListener('click',function(){set(1,0);});"
	"scroll.addEventListener('wheel',function(e){if(!e.ctrlKey&&!e.metaKey)return;e.preventDefault();"
	"var r=scroll.getBoundingClientRect();set(e.deltaY<0?zoom*1.25:zoom/1.25,(e.clientX-r.left)/r.width);},"
	"{passive:false});"
	"svg.addEventListener('mousemove',function(e){var el=e.target.closest('[data-tip]'),text,p;"
	"if(!el){tip.hidden=true;return;}text=el.getAttribute('data-tip');"
	"if(el.closest('.crit')){p=document.elementsFromPoint(e.clientX,e.clientY).find(function(x){"
	"return x.matches('rect.n[data-tip]');});if(p)text=p.getAttribute('data-tip')+'\\n'+text;}"
	"tip.textContent=text;tip.hidden=false;"
	"var x=e.clientX+14,y=e.clientY+14;if(x+tip.offsetWidth>innerWidth)x=e.clientX-tip.offsetWidth-8;"
	"if(y+tip.offsetHeight>innerHeight)y=e.clientY-tip.offsetHeight-8;"
	"tip.style.left=Math.max(0,x)+'px';tip.style.top=Math.max(0,y)+'px';});"
	"svg.addEventListener('mouseleave',function(){tip.hidden=true;});"
	"});})();";

void html_assets_csp(char out[HTML_ASSETS_CSP_LEN])
{
	char hash[SHA256_BASE64_LEN];

	sha256_base64(html_assets_script, strlen(html_assets_script), hash);
	snprintf(out, HTML_ASSETS_CSP_LEN,
		 "default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-%s'; img-src data:; "
		 "base-uri 'none'; form-action 'none'",
		 hash);
}
