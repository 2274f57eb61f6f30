// mockgps panel: the page of `mockgps run --panel`. Plain JavaScript, no build step, no
// framework. It reads /api/devices, /api/status, /api/route and the event stream /api/events
// (one line of the control socket's `subscribe` per epoch), and steers the receiver with
// POST /api/command, whose body is one control request ({"cmd":...}) as on the control socket.
// The stable hooks for tests (README, "Driving the panel from a test"): #position, #fix, #lat,
// #lon, #move, #skyplot (one element per satellite with data-prn and data-used), #map, #error,
// #device.
'use strict';

const SVG = 'http://www.w3.org/2000/svg';
const TRACK_POINTS = 600;
const STATUS_SECONDS = 3;
const params = new URLSearchParams(location.search);
const token = params.get('token');
const $ = (id) => document.getElementById(id);

const state = {
  device: 0,
  devices: [],
  leaflet: false,
  fix: null, // the last event
  track: [], // [[lat, lon], ...]
  route: [],
  events: null,
  map: null, // PlainMap or LeafletMap
};

// ---- HTTP ---------------------------------------------------------------------------------

/** The URL of an API path for the selected device, with the page's token when it has one. */
function api(path, withDevice = true) {
  const query = new URLSearchParams();
  if (withDevice) query.set('device', String(state.device));
  if (token) query.set('token', token);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

async function getJSON(path, withDevice = true) {
  const response = await fetch(api(path, withDevice), { cache: 'no-store' });
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch (_) {
    throw new Error(`${path}: ${response.status} ${text.trim()}`);
  }
}

/**
 * Sends one control request; returns its reply when accepted, else shows the refusal in #error
 * and returns null (the caller then changes nothing on the page).
 */
async function command(request) {
  let reply;
  try {
    const response = await fetch(api('/api/command'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(request),
    });
    const text = await response.text();
    try {
      reply = JSON.parse(text);
    } catch (_) {
      reply = { ok: false, error: `${response.status} ${text.trim()}` };
    }
  } catch (error) {
    reply = { ok: false, error: `cannot reach mockgps: ${error.message}` };
  }
  if (!reply || reply.ok !== true) {
    showError((reply && reply.error) || 'refused');
    return null;
  }
  showError('');
  return reply;
}

function showError(text) {
  $('error').textContent = text;
}

// ---- Forms: values as the control protocol wants them ---------------------------------------

/** A number input's value, or undefined when empty (the field is then left out). */
function numberOf(input) {
  const text = input.value.trim();
  if (text === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : text; // the command layer names what is wrong
}

/** A request with only the fields that have a value. */
function request(cmd, fields) {
  const body = { cmd };
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined) body[name] = value;
  }
  return body;
}

/** Moves the receiver; on success the form shows where it went. */
async function moveTo(lat, lon, alt) {
  const reply = await command(request('position', { lat, lon, alt }));
  if (reply && typeof lat === 'number' && typeof lon === 'number') {
    $('lat').value = lat.toFixed(7);
    $('lon').value = lon.toFixed(7);
  }
  return reply;
}

function wireControls() {
  $('move').addEventListener('submit', (event) => {
    event.preventDefault();
    moveTo(numberOf($('lat')), numberOf($('lon')), numberOf($('alt-input')));
  });
  $('velocity').addEventListener('submit', (event) => {
    event.preventDefault();
    command(request('velocity', {
      speed: numberOf($('speed-input')),
      course: numberOf($('course-input')),
    }));
  });
  for (const button of document.querySelectorAll('#fix-buttons button')) {
    button.addEventListener('click', () => command({ cmd: 'fix', mode: button.dataset.fix }));
  }
  wireFaults();
  wireRoute();
  wireOverride();
  $('device').addEventListener('change', () => selectDevice(Number($('device').value)));
}

/** Shows the fields of the chosen option: elements with `attribute` listing it. */
function showFieldsOf(form, attribute, chosen) {
  for (const group of form.querySelectorAll(`[${attribute}]`)) {
    group.hidden = !group.getAttribute(attribute).split(' ').includes(chosen);
  }
}

/** The named inputs of the visible groups of a form, as request fields. */
function visibleFields(form, attribute) {
  const fields = {};
  for (const group of form.querySelectorAll(`[${attribute}]`)) {
    if (group.hidden) continue;
    for (const input of group.querySelectorAll('[name]')) {
      fields[input.name] = input.type === 'number' ? numberOf(input) : input.value;
    }
  }
  return fields;
}

function wireFaults() {
  const form = $('inject');
  const update = () => showFieldsOf(form, 'data-fault', $('fault').value);
  $('fault').addEventListener('change', update);
  update();
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const fields = visibleFields(form, 'data-fault');
    command(request('inject', {
      fault: $('fault').value, duration: numberOf($('duration')), ...fields,
    }));
  });
  $('clear-fault').addEventListener('click', () => {
    command({ cmd: 'inject', fault: $('fault').value, duration: 0 });
  });
}

function wireRoute() {
  $('route').addEventListener('submit', async (event) => {
    event.preventDefault();
    const reply = await command(request('route', {
      file: $('route-file').value.trim(),
      speed: numberOf($('route-speed')),
      loop: $('route-loop').checked || undefined,
    }));
    if (reply) {
      state.track = [];
      loadRoute();
    }
  });
  $('playpause').addEventListener('click', async () => {
    const pausing = $('playpause').dataset.paused !== 'true';
    if (await command({ cmd: pausing ? 'pause' : 'resume' })) showPaused(pausing);
  });
  const seek = $('seek');
  seek.addEventListener('input', () => { $('seek-value').textContent = `${seek.value} s`; });
  seek.addEventListener('change', async () => {
    const before = seek.dataset.accepted || '0';
    if (await command({ cmd: 'seek', time: Number(seek.value) })) {
      seek.dataset.accepted = seek.value;
    } else {
      seek.value = before;
      $('seek-value').textContent = `${before} s`;
    }
  });
  $('seek-max').addEventListener('change', () => {
    const max = numberOf($('seek-max'));
    if (typeof max === 'number' && max > 0) seek.max = String(max);
  });
  wireScale();
  $('set-rate').addEventListener('click', () => {
    command({ cmd: 'rate', hz: numberOf($('rate')) });
  });
}

/** `#scale` sends `scale` when changed (Enter sends it too, rather than loading the route); a
 * refused factor goes back to the last accepted one. */
function wireScale() {
  const scale = $('scale');
  const send = async () => {
    const before = scale.dataset.accepted || '1';
    if (await command({ cmd: 'scale', factor: numberOf(scale) })) {
      scale.dataset.accepted = scale.value;
    } else {
      scale.value = before;
    }
  };
  scale.addEventListener('change', send);
  scale.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    scale.blur();
  });
}

/** The route's length, time into it and scale from `status`, unless the user is at them. */
function showPlayback(status) {
  const seek = $('seek');
  if (typeof status.route_seconds === 'number' && status.route_seconds > 0) {
    seek.max = String(status.route_seconds);
    $('seek-max').value = String(status.route_seconds);
  }
  if (typeof status.route_time === 'number' && document.activeElement !== seek) {
    seek.value = String(status.route_time);
    seek.dataset.accepted = seek.value;
    $('seek-value').textContent = `${Math.round(status.route_time)} s`;
  }
  const scale = $('scale');
  if (typeof status.scale === 'number' && document.activeElement !== scale) {
    scale.value = String(status.scale);
    scale.dataset.accepted = scale.value;
  }
}

function showPaused(paused) {
  const button = $('playpause');
  button.dataset.paused = String(paused);
  button.textContent = paused ? 'Play' : 'Pause';
  button.classList.toggle('active', paused);
}

function wireOverride() {
  const form = $('override-form');
  const update = () => showFieldsOf(form, 'data-override', $('override-mode').value);
  $('override-mode').addEventListener('change', update);
  update();
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    command(request('override', {
      mode: $('override-mode').value, ...visibleFields(form, 'data-override'),
    }));
  });
}

// ---- Status ---------------------------------------------------------------------------------

function fixed(value, digits, unit = '') {
  return typeof value === 'number' ? `${value.toFixed(digits)}${unit}` : '–';
}

function setText(id, text) {
  const element = $(id);
  if (element.textContent !== text) element.textContent = text;
}

/** The fields an epoch event and a status reply share. */
function showFix(fix) {
  if (typeof fix.lat === 'number' && typeof fix.lon === 'number') {
    setText('position', `${fix.lat.toFixed(7)}, ${fix.lon.toFixed(7)}`);
  }
  if (fix.fix) {
    setText('fix', fix.fix);
    $('fix').className = fix.fix;
    for (const button of document.querySelectorAll('#fix-buttons button')) {
      button.classList.toggle('active', button.dataset.fix === fix.fix);
    }
  }
  setText('alt', fixed(fix.alt, 1, ' m'));
  setText('speed', fixed(fix.speed, 2, ' m/s'));
  setText('course', fixed(fix.course, 1, '°'));
  setText('hdop', fixed(fix.hdop, 2));
  setText('pdop', fixed(fix.pdop, 2));
  if (typeof fix.satellites === 'number') {
    setText('sats', `${fix.satellites} used of ${fix.visible ?? '?'} in view`);
  }
  if (fix.time) setText('utc', fix.time);
  if (typeof fix.epoch === 'number') setText('epoch', String(fix.epoch));
}

/** The fields only /api/status has. */
function showStatus(status) {
  if (!status || status.ok === false) return;
  showFix(status);
  const clients = status.clients === true ? 'tty open' : status.clients === false ? 'none' : '–';
  const control = typeof status.control_clients === 'number'
    ? `, ${status.control_clients} control` : '';
  setText('clients', clients + control);
  setText('epochs-late', status.epochs_late ?? '–');
  setText('epochs-dropped', status.epochs_overrun ?? '–');
  setText('source', status.source ?? '–');
  setText('override', status.override ?? 'none');
  setText('rate-now', fixed(status.rate, 3, ' Hz').replace(/\.?0+ Hz$/, ' Hz'));
  // The rate field starts at the device's rate (and is the user's after).
  const rate = $('rate');
  if (typeof status.rate === 'number' && !rate.dataset.synced) {
    rate.value = String(status.rate);
    rate.dataset.synced = 'true';
  }
  if (status.link) setText('link', status.link);
  if (typeof status.paused === 'boolean') showPaused(status.paused);
  showPlayback(status);
}

async function pollStatus() {
  const device = state.device;
  try {
    const status = await getJSON('/api/status');
    if (device === state.device) showStatus(status);
  } catch (_) {
    // The stream badge tells that mockgps is gone; the next poll tries again.
  }
}

// ---- Events ---------------------------------------------------------------------------------

function connectEvents() {
  if (state.events) state.events.close();
  const events = new EventSource(api('/api/events'));
  state.events = events;
  const badge = $('stream');
  events.addEventListener('open', () => {
    badge.textContent = 'live';
    badge.className = 'badge on';
  });
  events.addEventListener('error', () => {
    badge.textContent = events.readyState === EventSource.CLOSED ? 'stopped' : 'reconnecting…';
    badge.className = 'badge off';
  });
  events.addEventListener('status', (event) => showStatus(JSON.parse(event.data)));
  events.addEventListener('message', (event) => {
    if (state.events !== events) return;
    onEpoch(JSON.parse(event.data));
  });
}

function onEpoch(fix) {
  state.fix = fix;
  showFix(fix);
  if (typeof fix.late_ms === 'number') setText('late', `${fix.late_ms.toFixed(1)} ms`);
  if (Array.isArray(fix.sky)) drawSky(fix.sky);
  if (typeof fix.lat === 'number' && typeof fix.lon === 'number') {
    const last = state.track[state.track.length - 1];
    if (!last || last[0] !== fix.lat || last[1] !== fix.lon) {
      state.track.push([fix.lat, fix.lon]);
      if (state.track.length > TRACK_POINTS) state.track.shift();
    }
    if (state.map) state.map.draw();
  }
}

// ---- Sky plot and SNR bars ------------------------------------------------------------------

const KNOWN_GNSS = ['GP', 'GL', 'GA', 'GB', 'BD', 'GQ'];
const GNSS_NAMES = { GP: 'GPS', GL: 'GLONASS', GA: 'Galileo', GB: 'BeiDou', BD: 'BeiDou',
  GQ: 'QZSS' };

function gnssClass(gnss) {
  return `gnss-${KNOWN_GNSS.includes(gnss) ? gnss : 'other'}`;
}

function svgElement(name, attributes = {}, text) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (text !== undefined) element.textContent = text;
  return element;
}

function drawSkyGrid(svg) {
  for (const elevation of [0, 30, 60]) {
    const r = 100 * (90 - elevation) / 90;
    svg.append(svgElement('circle', { class: 'ring', r }));
    if (elevation > 0) {
      svg.append(svgElement('text', { class: 'ring-label', x: 2, y: -r + 8 }, `${elevation}°`));
    }
  }
  svg.append(svgElement('line', { class: 'axis', x1: -100, y1: 0, x2: 100, y2: 0 }));
  svg.append(svgElement('line', { class: 'axis', x1: 0, y1: -100, x2: 0, y2: 100 }));
  const cardinals = [['N', 0, -102], ['E', 104, 3], ['S', 0, 109], ['W', -104, 3]];
  for (const [name, x, y] of cardinals) {
    svg.append(svgElement('text', { class: 'cardinal', x, y, 'text-anchor': 'middle' }, name));
  }
}

/**
 * One `<g class="sat">` per satellite, carrying data-prn, data-used and data-gnss. A satellite
 * keeps its element from epoch to epoch (a test holding it does not find it stale); only what
 * changed is written.
 */
function drawSky(sky) {
  const svg = $('skyplot');
  if (!svg.querySelector('.ring')) drawSkyGrid(svg);
  const old = new Map();
  for (const group of svg.querySelectorAll('g.sat')) old.set(group.dataset.key, group);
  const seen = new Set();
  for (const sat of sky) {
    const key = `${sat.gnss}-${sat.prn}`;
    let group = old.get(key);
    old.delete(key);
    if (!group) {
      group = svgElement('g', { 'data-key': key, 'data-prn': String(sat.prn), 'data-gnss': sat.gnss });
      group.append(svgElement('title'), svgElement('circle', { r: 7 }),
        svgElement('text', { y: 2.5 }, String(sat.prn)));
      svg.append(group);
    }
    const r = 100 * (90 - Math.max(0, Math.min(90, sat.el))) / 90;
    const azimuth = (sat.az * Math.PI) / 180;
    const x = (r * Math.sin(azimuth)).toFixed(1), y = (-r * Math.cos(azimuth)).toFixed(1);
    setAttributes(group, {
      class: `sat ${gnssClass(sat.gnss)}`, 'data-used': String(sat.used === true),
      transform: `translate(${x} ${y})`,
    });
    const title = `${sat.gnss} ${sat.prn}: az ${sat.az}°, el ${sat.el}°, `
      + `SNR ${sat.snr ?? '–'}${sat.used ? ', used' : ''}`;
    if (group.firstChild.textContent !== title) group.firstChild.textContent = title;
    seen.add(sat.gnss);
  }
  for (const gone of old.values()) gone.remove();
  drawSNR(sky);
  const legend = $('legend');
  const legendKey = [...seen].join(' ');
  if (legend.dataset.key === legendKey) return;
  legend.dataset.key = legendKey;
  legend.replaceChildren();
  for (const gnss of seen) {
    const item = document.createElement('span');
    const key = document.createElement('span');
    key.className = `key ${gnssClass(gnss)}`;
    item.append(key, GNSS_NAMES[gnss] || gnss);
    legend.append(item);
  }
  if (seen.size) legend.append(' filled: used in the fix');
}

function setAttributes(element, attributes) {
  for (const [name, value] of Object.entries(attributes)) {
    if (element.getAttribute(name) !== value) element.setAttribute(name, value);
  }
}

function drawSNR(sky) {
  const svg = $('snr');
  svg.replaceChildren();
  const count = Math.max(sky.length, 1);
  const width = 300 / count;
  sky.forEach((sat, index) => {
    const snr = typeof sat.snr === 'number' ? sat.snr : 0;
    const height = Math.min(60, (snr / 55) * 60);
    const x = index * width;
    svg.append(svgElement('rect', {
      class: `bar ${gnssClass(sat.gnss)}`, 'data-used': String(sat.used === true),
      x: (x + width * 0.15).toFixed(1), y: (66 - height).toFixed(1),
      width: (width * 0.7).toFixed(1), height: height.toFixed(1),
    }));
    svg.append(svgElement('text', { class: 'bar-label', x: (x + width / 2).toFixed(1), y: 76 },
      String(sat.prn)));
  });
}

// ---- The plain map: a local equirectangular projection in SVG, auto-fitted ------------------

const METERS_PER_DEGREE = 111320;

function niceStep(span, lines) {
  const raw = span / lines;
  const power = Math.pow(10, Math.floor(Math.log10(raw)));
  for (const factor of [1, 2, 5, 10]) {
    if (factor * power >= raw) return factor * power;
  }
  return 10 * power;
}

class PlainMap {
  constructor(element, why = 'Plain map (offline).') {
    this.element = element;
    this.svg = svgElement('svg', { class: 'plain-map' });
    element.replaceChildren(this.svg);
    this.projection = null;
    this.pointer = null; // [x, y] while a button is down: the target of a click or drag
    this.svg.addEventListener('pointerdown', (event) => this.down(event));
    this.svg.addEventListener('pointermove', (event) => this.moveTarget(event));
    this.svg.addEventListener('pointerup', (event) => this.up(event));
    this.svg.addEventListener('pointercancel', () => { this.pointer = null; this.draw(); });
    window.addEventListener('resize', () => this.draw());
    $('map-kind').textContent = why;
  }

  /** The projection that fits every point shown, fixed while the pointer is down. */
  fit(points, width, height) {
    let south = 90, north = -90, west = 180, east = -180;
    for (const [lat, lon] of points) {
      south = Math.min(south, lat); north = Math.max(north, lat);
      west = Math.min(west, lon); east = Math.max(east, lon);
    }
    const lat0 = (south + north) / 2, lon0 = (west + east) / 2;
    const cos = Math.max(Math.cos((lat0 * Math.PI) / 180), 0.01);
    const minimumSpan = 300 / METERS_PER_DEGREE; // at least 300 m across
    const latSpan = Math.max(north - south, minimumSpan);
    const lonSpan = Math.max((east - west) * cos, minimumSpan);
    const scale = Math.min(width / lonSpan, height / latSpan) / 1.2;
    return { lat0, lon0, cos, scale, width, height };
  }

  project([lat, lon]) {
    const p = this.projection;
    return [p.width / 2 + (lon - p.lon0) * p.cos * p.scale, p.height / 2 - (lat - p.lat0) * p.scale];
  }

  unproject([x, y]) {
    const p = this.projection;
    return [p.lat0 - (y - p.height / 2) / p.scale, p.lon0 + (x - p.width / 2) / (p.cos * p.scale)];
  }

  localPoint(event) {
    const box = this.svg.getBoundingClientRect();
    return [event.clientX - box.left, event.clientY - box.top];
  }

  down(event) {
    if (!this.projection) return;
    this.svg.setPointerCapture(event.pointerId);
    this.pointer = this.localPoint(event);
    this.draw();
  }

  moveTarget(event) {
    if (!this.pointer) return;
    this.pointer = this.localPoint(event);
    this.draw();
  }

  up(event) {
    if (!this.pointer) return;
    const [lat, lon] = this.unproject(this.localPoint(event));
    this.pointer = null;
    moveTo(round7(lat), round7(lon));
    this.draw();
  }

  draw() {
    const width = this.element.clientWidth || 600, height = this.element.clientHeight || 400;
    this.svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
    const here = state.fix && typeof state.fix.lat === 'number' ? [state.fix.lat, state.fix.lon]
      : null;
    const points = [...state.track, ...state.route];
    if (here) points.push(here);
    if (!points.length) return;
    if (!this.pointer || !this.projection) this.projection = this.fit(points, width, height);
    this.svg.replaceChildren();
    this.drawGraticule(width, height);
    this.drawLine(state.route, 'route-line');
    this.drawLine(state.track, 'track-line');
    if (here) {
      const [x, y] = this.project(here);
      this.svg.append(svgElement('circle', { class: 'receiver-halo', cx: x, cy: y, r: 14 }));
      this.svg.append(svgElement('circle', { class: 'receiver', cx: x, cy: y, r: 6 }));
    }
    if (this.pointer) {
      const [x, y] = this.pointer;
      this.svg.append(svgElement('circle', { class: 'target', cx: x, cy: y, r: 9 }));
    }
    this.drawScale(height);
  }

  drawLine(points, className) {
    if (points.length < 2) return;
    const path = points.map((point, index) => {
      const [x, y] = this.project(point);
      return `${index ? 'L' : 'M'}${x.toFixed(1)} ${y.toFixed(1)}`;
    });
    this.svg.append(svgElement('path', { class: className, d: path.join('') }));
  }

  drawGraticule(width, height) {
    const [north, west] = this.unproject([0, 0]);
    const [south, east] = this.unproject([width, height]);
    const step = niceStep(Math.max(north - south, (east - west) * this.projection.cos), 5);
    const digits = Math.max(0, -Math.floor(Math.log10(step)));
    for (let lat = Math.ceil(south / step) * step; lat <= north; lat += step) {
      const [, y] = this.project([lat, west]);
      this.svg.append(svgElement('line', { class: 'graticule', x1: 0, y1: y, x2: width, y2: y }));
      this.svg.append(svgElement('text', { class: 'graticule-label', x: 4, y: y - 3 },
        `${lat.toFixed(digits)}°`));
    }
    const lonStep = step / this.projection.cos > 2 * step ? niceStep(east - west, 5) : step;
    const lonDigits = Math.max(0, -Math.floor(Math.log10(lonStep)));
    for (let lon = Math.ceil(west / lonStep) * lonStep; lon <= east; lon += lonStep) {
      const [x] = this.project([south, lon]);
      this.svg.append(svgElement('line', { class: 'graticule', x1: x, y1: 0, x2: x, y2: height }));
      if (x > width - 60) continue;
      this.svg.append(svgElement('text', { class: 'graticule-label', x: x + 3, y: height - 4 },
        `${lon.toFixed(lonDigits)}°`));
    }
  }

  drawScale(height) {
    const metersPerPixel = METERS_PER_DEGREE / this.projection.scale;
    const meters = niceStep(metersPerPixel * 120, 1);
    const pixels = meters / metersPerPixel;
    const y = height - 24;
    this.svg.append(svgElement('line', { class: 'scale', x1: 12, y1: y, x2: 12 + pixels, y2: y }));
    const label = meters >= 1000 ? `${meters / 1000} km` : `${meters} m`;
    this.svg.append(svgElement('text', { class: 'scale-label', x: 12, y: y - 5 }, label));
  }
}

function round7(value) {
  return Math.round(value * 1e7) / 1e7;
}

// ---- Leaflet, when Debian's libjs-leaflet is served ------------------------------------------

function loadLeaflet() {
  return new Promise((resolve, reject) => {
    const css = document.createElement('link');
    css.rel = 'stylesheet';
    css.href = api('/leaflet/leaflet.css', false);
    document.head.append(css);
    const script = document.createElement('script');
    script.src = api('/leaflet/leaflet.js', false);
    script.onload = () => (window.L ? resolve(window.L) : reject(new Error('no L')));
    script.onerror = () => reject(new Error('leaflet.js did not load'));
    document.head.append(script);
  });
}

class LeafletMap {
  constructor(element, L) {
    this.L = L;
    L.Icon.Default.imagePath = '/leaflet/images/';
    // Every request carries the token (no cookie): the marker's images too.
    const withToken = (name) => (token ? `${name}?token=${encodeURIComponent(token)}` : name);
    L.Icon.Default.mergeOptions({
      iconUrl: withToken('marker-icon.png'),
      iconRetinaUrl: withToken('marker-icon-2x.png'),
      shadowUrl: withToken('marker-shadow.png'),
    });
    this.map = L.map(element, { zoomControl: true }).setView([0, 0], 2);
    const tiles = L.tileLayer('https://tile.openstreetmap.org/{z}/{x}/{y}.png', {
      maxZoom: 19, attribution: '© OpenStreetMap contributors',
    }).addTo(this.map);
    // Without tiles (offline, or refused) Leaflet is a blank grey: the plain map with its
    // graticule says more.
    let tileLoaded = false;
    tiles.on('tileload', () => { tileLoaded = true; });
    tiles.on('tileerror', () => {
      if (tileLoaded || state.map !== this) return;
      this.map.remove();
      state.map = new PlainMap(element, 'Plain map: the map tiles cannot be reached.');
      state.map.draw();
    });
    this.routeLine = L.polyline([], { color: '#8e44ad', weight: 4, opacity: 0.55 })
      .addTo(this.map);
    this.trackLine = L.polyline([], { color: '#1d6fd6', weight: 3 }).addTo(this.map);
    this.marker = null;
    this.centred = false;
    this.map.on('click', (event) => moveTo(round7(event.latlng.lat), round7(event.latlng.lng)));
    $('map-kind').textContent = 'Drag the marker, or click; ?map=plain for the offline map.';
  }

  draw() {
    this.routeLine.setLatLngs(state.route);
    this.trackLine.setLatLngs(state.track);
    if (!state.fix || typeof state.fix.lat !== 'number') return;
    const here = [state.fix.lat, state.fix.lon];
    if (!this.marker) {
      this.marker = this.L.marker(here, { draggable: true, title: 'receiver' }).addTo(this.map);
      this.marker.on('dragend', () => {
        const target = this.marker.getLatLng();
        moveTo(round7(target.lat), round7(target.lng));
      });
    } else if (!this.marker.dragging || !this.marker.dragging.moved()) {
      this.marker.setLatLng(here);
    }
    if (!this.centred) {
      this.map.setView(here, 16);
      this.centred = true;
    } else if (!this.map.getBounds().contains(here)) {
      this.map.panTo(here);
    }
  }
}

async function createMap() {
  const element = $('map');
  if (state.leaflet && params.get('map') !== 'plain') {
    try {
      return new LeafletMap(element, await loadLeaflet());
    } catch (_) {
      element.replaceChildren();
    }
  }
  return new PlainMap(element);
}

// ---- Devices --------------------------------------------------------------------------------

async function loadRoute() {
  const device = state.device;
  try {
    const reply = await getJSON('/api/route');
    if (device === state.device && reply.ok) state.route = reply.points || [];
  } catch (_) {
    state.route = [];
  }
  if (state.map) state.map.draw();
}

function selectDevice(id) {
  state.device = id;
  state.fix = null;
  state.track = [];
  state.route = [];
  delete $('rate').dataset.synced;
  const device = state.devices.find((entry) => entry.id === id);
  if (device) {
    setText('link', [device.link, device.profile, device.source].filter(Boolean).join(' · '));
  }
  showError('');
  connectEvents();
  loadRoute();
  pollStatus();
}

async function start() {
  wireControls();
  try {
    const devices = await getJSON('/api/devices', false);
    state.devices = devices.devices || [];
    state.leaflet = devices.leaflet === true;
  } catch (error) {
    showError(error.message);
  }
  const select = $('device');
  for (const device of state.devices) {
    const option = document.createElement('option');
    option.value = String(device.id);
    option.textContent = `${device.id}: ${device.link}`;
    select.append(option);
  }
  $('device-label').hidden = state.devices.length < 2;
  const wanted = Number(params.get('device'));
  const first = state.devices.find((device) => device.id === wanted) || state.devices[0];
  state.map = await createMap();
  if (first) {
    select.value = String(first.id);
    selectDevice(first.id);
  }
  setInterval(pollStatus, STATUS_SECONDS * 1000);
}

start();
