// The peer of `cargo xtask bench-peers`: Chart.js 4.5.1 drawing on @napi-rs/canvas (Skia) in
// Node, behind a minimal HTTP server so it is measured the way chart-raster's service is.
//
// `POST /render` takes the service's request body ({chart, width, height, devicePixelRatio,
// backgroundColor}) and answers the PNG. The page setup mirrors the browser engine's
// (crates/chart-raster-browser/src/page.rs): animation off, the requested device pixel ratio,
// datalabels registered but hidden unless the config turns it on, annotation registered, the
// background painted under everything (Chart.js's "canvas background" recipe). Prints
// `listening http://127.0.0.1:<port>` once ready.
'use strict';
const http = require('node:http');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { createCanvas } = require('@napi-rs/canvas');
const Chart = require('chart.js/auto');
const ChartDataLabels = require('chartjs-plugin-datalabels');
const annotationPlugin = require('chartjs-plugin-annotation');
// The date adapter as the browser engine loads it: the bundle with date-fns inside, run as a
// classic script against a global `Chart` (the package is an ES module, so `require` would not
// run its UMD wrapper as CommonJS).
const adapter = path.join(__dirname, 'node_modules/chartjs-adapter-date-fns/dist/chartjs-adapter-date-fns.bundle.min.js');
globalThis.Chart = Chart;
vm.runInThisContext(fs.readFileSync(adapter, 'utf8'), { filename: adapter });

Chart.register(ChartDataLabels, annotationPlugin);
Chart.defaults.plugins.datalabels.display = false;

const background = (color) => ({
  id: 'benchBackground',
  beforeDraw(chart) {
    const ctx = chart.ctx;
    ctx.save();
    ctx.globalCompositeOperation = 'destination-over';
    ctx.fillStyle = color;
    ctx.fillRect(0, 0, chart.width, chart.height);
    ctx.restore();
  },
});

async function render(req) {
  const width = req.width ?? 800;
  const height = req.height ?? 600;
  const dpr = req.devicePixelRatio ?? 2;
  const config = req.chart;
  config.options = config.options ?? {};
  config.options.animation = false;
  config.options.responsive = false;
  config.options.devicePixelRatio = dpr;
  config.plugins = [background(req.backgroundColor ?? 'white')];
  const canvas = createCanvas(width, height);
  const chart = new Chart(canvas, config);
  try {
    return await canvas.encode('png');
  } finally {
    chart.destroy();
  }
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    try {
      if (req.method === 'POST' && req.url === '/render') {
        const png = await render(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
        res.end(png);
      } else {
        res.writeHead(404, { 'content-length': 0 });
        res.end();
      }
    } catch (e) {
      const body = Buffer.from(String(e && e.stack ? e.stack : e));
      res.writeHead(500, { 'content-type': 'text/plain', 'content-length': body.length });
      res.end(body);
    }
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  console.log(`listening http://127.0.0.1:${server.address().port}`);
});
