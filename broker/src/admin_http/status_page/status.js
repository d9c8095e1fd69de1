// The Tidemark status page: polls this broker's admin API every POLL_MS,
// draws the tables, and keeps the last HISTORY_MS of throughput and lag
// readings in memory for the charts. Plain DOM calls, no library, nothing
// fetched from anywhere but this server (the page's CSP forbids it).
"use strict";

const POLL_MS = 2000;
/** How far back the charts reach. */
const HISTORY_MS = 10 * 60 * 1000;
/** A chart never spans less than this, so its first points do not stretch across it. */
const CHART_SPAN_MIN_MS = 60 * 1000;
/** Leaderless / under-replicated partitions listed: topics, and partitions per topic. */
const PROBLEM_TOPICS_MAX = 10;
const PROBLEM_PARTITIONS_MAX = 20;
/** Lag charts drawn (the most lagging groups). */
const LAG_CHARTS_MAX = 8;
/** Per-request timeout: a stuck request shows as an error, not a frozen page. */
const FETCH_TIMEOUT_MS = 8000;
const TOKEN_KEY = "tidemark-admin-token";
/** The SVG namespace: a name, never fetched. */
const SVG_NS = "http://www.w3.org/2000/svg";

const ENDPOINTS = {
  health: "v1/cluster/health",
  brokers: "v1/brokers",
  topics: "v1/topics",
  groups: "v1/groups",
};

const state = {
  polls: 0,
  errors: {},          // endpoint -> message
  needToken: false,
  /** topic -> {t, records_in, bytes_in, records_out, bytes_out} (the last reading) */
  lastTopic: new Map(),
  /** topic -> [{t, v}] records in per second */
  topicRates: new Map(),
  /** group -> [{t, v}] total lag */
  groupLag: new Map(),
  /** The last /v1/topics reading with its rates, for redrawing. */
  topics: null,
};

function $(id) { return document.getElementById(id); }

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined) continue;
    if (k === "class") e.className = v;
    else e.setAttribute(k, String(v));
  }
  for (const c of children) {
    if (c === null || c === undefined) continue;
    e.append(c instanceof Node ? c : String(c));
  }
  return e;
}

function svg(tag, attrs) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  return e;
}

function fmtInt(n) {
  return n === null || n === undefined ? "–" : Number(n).toLocaleString("en-US");
}

function fmtRate(n) {
  if (n === null || n === undefined) return "–";
  if (n >= 100) return Math.round(n).toLocaleString("en-US");
  return n.toFixed(1);
}

function fmtBytes(n) {
  if (n === null || n === undefined) return "–";
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return (i === 0 ? Math.round(n) : n.toFixed(1)) + " " + units[i];
}

function token() {
  try { return sessionStorage.getItem(TOKEN_KEY) || ""; } catch (_) { return ""; }
}

/** GET one endpoint as JSON; throws an Error whose message says what failed. */
async function getJson(path) {
  const headers = {};
  const t = token();
  if (t) headers["Authorization"] = "Bearer " + t;
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), FETCH_TIMEOUT_MS);
  let r;
  try {
    r = await fetch(path, { headers, cache: "no-store", signal: ctl.signal });
  } catch (e) {
    throw new Error(e.name === "AbortError"
      ? "no answer within " + FETCH_TIMEOUT_MS / 1000 + " s"
      : "unreachable (" + e.message + ")");
  } finally {
    clearTimeout(timer);
  }
  const text = await r.text();
  if (r.status === 401) {
    state.needToken = true;
    throw new Error("HTTP 401: the admin token is needed");
  }
  if (!r.ok) {
    let why = text.trim();
    try { why = JSON.parse(text).error || why; } catch (_) { /* plain text */ }
    throw new Error("HTTP " + r.status + (why ? ": " + why : ""));
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error("not JSON (" + e.message + ")");
  }
}

function pushHistory(map, key, t, v) {
  let h = map.get(key);
  if (!h) { h = []; map.set(key, h); }
  h.push({ t, v });
  while (h.length && h[0].t < t - HISTORY_MS) h.shift();
}

/** Drops histories of keys not seen in the last reading. */
function prune(map, seen) {
  for (const k of [...map.keys()]) if (!seen.has(k)) map.delete(k);
}

// ---- rendering

function renderHealth(h) {
  const healthy = !!h.is_healthy;
  const he = $("health");
  he.textContent = healthy ? "Healthy" : "Unhealthy";
  he.dataset.healthy = String(healthy);
  he.className = "value " + (healthy ? "good" : "bad");
  $("node").textContent = "node " + h.node_id;
  const up = h.brokers_up.length, down = h.brokers_down.length;
  $("brokers-up").textContent = up;
  $("brokers-up").dataset.count = up;
  $("brokers-total").textContent = h.brokers.length;
  const downEl = $("brokers-down");
  downEl.dataset.count = down;
  downEl.textContent = down ? "down: " + h.brokers_down.join(", ") : "none down";
  downEl.className = "sub" + (down ? " bad" : "");
  for (const [id, n] of [["leaderless", h.leaderless_count], ["under-replicated", h.under_replicated_count]]) {
    const e = $(id);
    e.textContent = fmtInt(n);
    e.dataset.count = n;
    e.className = "value " + (n > 0 ? "bad" : "good");
  }
  const c = $("controller");
  c.textContent = h.controller_has_leader ? "node " + h.controller_leader : "none";
  c.dataset.nodeId = h.controller_has_leader ? h.controller_leader : "";
  c.className = "value " + (h.controller_has_leader ? "" : "bad");

  const problems = $("problems");
  problems.replaceChildren();
  // Bounded: a broker down in a 10,000-partition cluster must not fill the page.
  const list = (what, byTopic) => {
    const topics = Object.entries(byTopic || {});
    const parts = topics.slice(0, PROBLEM_TOPICS_MAX).map(([t, ps]) => t + " [" +
      ps.slice(0, PROBLEM_PARTITIONS_MAX).join(", ") +
      (ps.length > PROBLEM_PARTITIONS_MAX ? ", … " + (ps.length - PROBLEM_PARTITIONS_MAX) + " more" : "") + "]");
    if (topics.length > PROBLEM_TOPICS_MAX) parts.push("… " + (topics.length - PROBLEM_TOPICS_MAX) + " more topics");
    if (parts.length) problems.append(el("div", { "data-problem": what }, what + ": " + parts.join("; ")));
  };
  list("leaderless", h.leaderless_partitions);
  list("under-replicated", h.under_replicated_partitions);
}

function renderBrokers(brokers) {
  const body = $("brokers").tBodies[0];
  body.replaceChildren(...brokers.map((b) => el("tr",
    { "data-broker-id": b.node_id, "data-alive": b.alive, class: b.alive ? "" : "down" },
    el("td", {}, b.node_id),
    el("td", {}, b.host + ":" + b.port),
    el("td", {}, b.rack || "–"),
    el("td", { class: b.alive ? "good" : "bad" }, b.alive ? "up" : "down"),
    el("td", {}, b.is_controller_leader ? "leader" : ""),
    el("td", { class: "num" }, b.partition_replicas === undefined ? "–" : fmtInt(b.partition_replicas)),
    el("td", { class: "num" }, b.partitions_led === undefined ? "–" : fmtInt(b.partitions_led)))));
  if (!brokers.length) body.append(el("tr", {}, el("td", { class: "empty", colspan: 7 }, "no brokers")));
}

/** The per-second rates of `t` since its previous reading (null when there is none, a counter went back: a restart,
 * or the brokers summed changed: a peer that stops or starts answering is not throughput). */
function topicRates(t, at, brokers) {
  const prev = state.lastTopic.get(t.topic);
  const cur = { t: at, records_in: t.records_in_total, bytes_in: t.bytes_in_total,
    records_out: t.records_out_total, bytes_out: t.bytes_out_total, brokers };
  state.lastTopic.set(t.topic, cur);
  if (!prev || cur.t <= prev.t || prev.brokers !== cur.brokers) return null;
  const s = (cur.t - prev.t) / 1000;
  const r = {};
  for (const k of ["records_in", "bytes_in", "records_out", "bytes_out"]) {
    if (cur[k] < prev[k]) return null;
    r[k] = (cur[k] - prev[k]) / s;
  }
  return r;
}

/** Takes a /v1/topics reading: rates against the previous one, history, then the table. */
function renderTopics(j) {
  // Rates use the broker's clock (exact spacing of its readings); the
  // history uses the page's, like every chart of what the page saw.
  const at = j.sampled_at_ms;
  const now = Date.now();
  const seen = new Set();
  const rates = new Map();
  let recIn = 0, bytesIn = 0, anyRate = false;
  const brokers = (j.brokers || []).join(",");
  for (const t of j.topics) {
    seen.add(t.topic);
    const r = topicRates(t, at, brokers);
    rates.set(t.topic, r);
    if (r) {
      pushHistory(state.topicRates, t.topic, now, r.records_in);
      recIn += r.records_in; bytesIn += r.bytes_in; anyRate = true;
    }
  }
  prune(state.topicRates, seen);
  prune(state.lastTopic, seen);
  state.topics = { j, rates, now };
  drawTopics();
  $("produced-label").textContent = j.scope === "cluster" ? "Produced (cluster)" : "Produced (this broker)";
  const ri = $("records-in-rate"), bi = $("bytes-in-rate");
  ri.textContent = anyRate ? fmtRate(recIn) + " rec/s" : "–";
  ri.dataset.perS = anyRate ? recIn.toFixed(3) : "";
  bi.textContent = anyRate ? fmtBytes(bytesIn) + "/s in" : "–";
  bi.dataset.perS = anyRate ? bytesIn.toFixed(3) : "";
}

/** The topics table from the last reading (again when the internal-topics box changes). */
function drawTopics() {
  if (!state.topics) return;
  const { j, rates, now } = state.topics;
  const showInternal = $("show-internal").checked;
  const cluster = j.scope === "cluster";
  $("topics-scope").textContent = cluster
    ? "Throughput of the whole cluster (each partition counted at its leader), from two successive readings."
    : "Throughput as this broker served it (it counts the partitions it leads), from two successive readings.";
  $("topics-size-head").textContent = cluster ? "Size" : "Size here";
  missingNote("topics-missing", j);
  const rows = [];
  for (const t of j.topics) {
    if (t.internal && !showInternal) continue;
    const r = rates.get(t.topic);
    rows.push(el("tr", {
      "data-topic": t.topic,
      "data-partitions": t.partitions,
      "data-records-in-total": t.records_in_total,
      "data-records-in-per-s": r ? r.records_in.toFixed(3) : "",
      class: t.internal ? "internal" : "",
    },
    el("td", {}, t.topic),
    el("td", { class: "num" }, fmtInt(t.partitions)),
    el("td", { class: "num" }, fmtInt(t.replication_factor)),
    el("td", { class: "num rate" }, r ? fmtRate(r.records_in) : "–"),
    el("td", { class: "num rate" }, r ? fmtBytes(r.bytes_in) + "/s" : "–"),
    el("td", { class: "num rate" }, r ? fmtRate(r.records_out) : "–"),
    el("td", { class: "num rate" }, r ? fmtBytes(r.bytes_out) + "/s" : "–"),
    el("td", { class: "num records-in" }, fmtInt(t.records_in_total)),
    el("td", { class: "num" }, fmtBytes(cluster ? t.size_bytes : t.size_bytes_here)),
    el("td", {}, sparkline(state.topicRates.get(t.topic) || [], now))));
  }
  if (!rows.length) rows.push(el("tr", {}, el("td", { class: "empty", colspan: 10 }, "no topics")));
  $("topics").tBodies[0].replaceChildren(...rows);
  $("topics-note").textContent = j.truncated
    ? "Showing " + j.topics.length + " of " + j.topics_total + " topics (limit " + j.limit + ")." : "";
}

/** Says which brokers did not answer a cluster-wide reading (a note, not the error banner: the rest is shown). */
function missingNote(id, j) {
  const m = j.missing_brokers || [];
  const note = $(id);
  note.dataset.missing = m.join(",");
  note.textContent = m.length
    ? "Broker" + (m.length > 1 ? "s " : " ") + m.join(", ") + " did not answer: " + (m.length > 1 ? "their" : "its") +
      " figures are missing."
    : "";
}

function renderGroups(j) {
  const at = Date.now();
  const cluster = j.scope === "cluster";
  $("groups-scope").textContent = cluster
    ? "Every broker's groups, with the broker that coordinates them; lag is the leader's high watermark minus the committed offset."
    : "Groups this broker coordinates; lag is the high watermark minus the committed offset, on partitions with a replica here.";
  missingNote("groups-missing", j);
  const body = $("groups").tBodies[0];
  const seen = new Set();
  const rows = j.groups.map((g) => {
    seen.add(g.group);
    pushHistory(state.groupLag, g.group, at, g.lag_sum);
    const parts = g.partitions.slice(0, 3).map((p) => el("div", {
      "data-topic-partition": p.topic + "/" + p.partition,
      "data-partition-lag": p.lag === null ? "" : p.lag,
    }, p.topic + "/" + p.partition + ": " + (p.lag === null
      ? "committed " + fmtInt(p.committed_offset) + (cluster ? ", leader not answering" : ", no replica here")
      : fmtInt(p.lag) + " (" + fmtInt(p.committed_offset) + " of " + fmtInt(p.high_watermark) + ")")));
    const more = g.partitions_committed - parts.length;
    if (more > 0) parts.push(el("div", {}, "… " + more + " more"));
    return el("tr", {
      "data-group": g.group,
      "data-state": g.state,
      "data-members": g.members,
      "data-lag": g.lag_sum,
      "data-lag-max": g.lag_max,
      "data-coordinator": g.coordinator === undefined ? "" : g.coordinator,
      class: g.lag_sum > 0 ? "lagging" : "",
    },
    el("td", {}, g.group, g.coordinator === undefined ? null
      : el("span", { class: "muted" }, " on broker " + g.coordinator)),
    el("td", {}, g.type + (g.protocol_type && g.protocol_type !== g.type ? " (" + g.protocol_type + ")" : "")),
    el("td", {}, g.state),
    el("td", { class: "num" }, fmtInt(g.members)),
    el("td", { class: "num lag" }, fmtInt(g.lag_sum)),
    el("td", { class: "num lag" }, fmtInt(g.lag_max)),
    el("td", { class: "num" }, fmtInt(g.partitions_committed)),
    el("td", { class: "parts" }, ...parts));
  });
  prune(state.groupLag, seen);
  if (!rows.length) rows.push(el("tr", {}, el("td", { class: "empty", colspan: 8 }, cluster ? "no groups" : "no groups coordinated here")));
  body.replaceChildren(...rows);
  $("groups-note").textContent = j.truncated
    ? "Showing " + j.groups.length + " of " + j.groups_total + " groups (limit " + j.limit + "), the most lagging first." : "";

  // Charts: the most lagging groups (the endpoint's order).
  const charts = j.groups.slice(0, LAG_CHARTS_MAX).map((g) =>
    lagChart(g.group, state.groupLag.get(g.group) || [], at));
  if (!charts.length) charts.push(el("p", { class: "muted" }, "no groups to chart"));
  $("lag-charts").replaceChildren(...charts);
}

/** The x range of a chart ending at `now`: back to its first point, at least CHART_SPAN_MIN_MS, at most HISTORY_MS. */
function span(points, now) {
  const first = points.length ? points[0].t : now;
  return Math.min(HISTORY_MS, Math.max(CHART_SPAN_MIN_MS, now - first));
}

function polyline(points, now, w, h, pad) {
  const spanMs = span(points, now);
  const max = Math.max(1, ...points.map((p) => p.v));
  const x = (t) => pad + (w - 2 * pad) * (1 - (now - t) / spanMs);
  const y = (v) => h - pad - (h - 2 * pad) * (v / max);
  return { max, spanMs, pts: points.map((p) => x(p.t).toFixed(1) + "," + y(p.v).toFixed(1)), x, y };
}

function sparkline(points, now) {
  const w = 120, h = 24;
  const s = svg("svg", { class: "spark", width: w, height: h, viewBox: "0 0 " + w + " " + h,
    "data-points": points.length });
  if (points.length) {
    const { pts } = polyline(points, now, w, h, 2);
    s.append(svg("polyline", { class: "line", points: pts.join(" ") }));
  }
  return s;
}

function lagChart(group, points, now) {
  const w = 380, h = 140, pad = 24;
  const chart = svg("svg", { width: w, height: h, viewBox: "0 0 " + w + " " + h,
    role: "img", "aria-label": "lag of " + group });
  const { max, spanMs, pts } = polyline(points, now, w, h, pad);
  chart.append(svg("line", { class: "axis", x1: pad, y1: h - pad, x2: w - pad, y2: h - pad }));
  chart.append(svg("line", { class: "axis", x1: pad, y1: pad, x2: pad, y2: h - pad }));
  if (pts.length) {
    const first = pts[0].split(",")[0], last = pts[pts.length - 1].split(",")[0];
    chart.append(svg("polygon", { class: "area",
      points: first + "," + (h - pad) + " " + pts.join(" ") + " " + last + "," + (h - pad) }));
    chart.append(svg("polyline", { class: "line", points: pts.join(" ") }));
    const [lx, ly] = pts[pts.length - 1].split(",");
    chart.append(svg("circle", { class: "dot", cx: lx, cy: ly, r: 2.5 }));
  }
  const label = (x, y, anchor, text) => {
    const t = svg("text", { x, y, "text-anchor": anchor });
    t.textContent = text;
    chart.append(t);
  };
  label(pad - 3, pad + 4, "end", max >= 10000 ? (max / 1000).toFixed(0) + "k" : String(max));
  label(pad - 3, h - pad + 3, "end", "0");
  label(pad, h - 6, "start", "-" + Math.round(spanMs / 60000 * 10) / 10 + " min");
  label(w - pad, h - 6, "end", "now");
  const current = points.length ? points[points.length - 1].v : null;
  return el("figure", { class: "chart", "data-chart-group": group, "data-points": points.length,
    "data-lag": current === null ? "" : current },
  el("figcaption", {}, group, el("span", { class: "muted" }, "lag " + fmtInt(current))),
  chart);
}

function renderBanner() {
  const msgs = Object.entries(state.errors).map(([ep, m]) => "GET " + ep + " failed: " + m);
  const b = $("banner");
  if (msgs.length) {
    b.textContent = msgs.join("\n") + "\n(the figures below are from the last good reading)";
    b.hidden = false;
  } else {
    b.textContent = "";
    b.hidden = true;
  }
  $("token-form").hidden = !state.needToken;
}

// ---- polling

const RENDER = {
  health: renderHealth,
  brokers: renderBrokers,
  topics: renderTopics,
  groups: renderGroups,
};

async function poll() {
  state.needToken = false;
  delete state.errors["page"];
  await Promise.all(Object.entries(ENDPOINTS).map(async ([name, path]) => {
    try {
      const j = await getJson(path);
      RENDER[name](j);
      delete state.errors[path];
    } catch (e) {
      state.errors[path] = e.message;
    }
  }));
  state.polls++;
  const u = $("updated");
  u.dataset.polls = state.polls;
  u.textContent = "updated " + new Date().toLocaleTimeString("en-GB") +
    (Object.keys(state.errors).length ? " (with errors)" : "");
  renderBanner();
}

async function loop() {
  try {
    await poll();
  } catch (e) {
    // A rendering bug must not stop the refreshing: say it, try again.
    state.errors["page"] = "rendering failed: " + e.message;
    renderBanner();
  }
  setTimeout(loop, POLL_MS);
}

document.addEventListener("DOMContentLoaded", () => {
  $("token-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    try { sessionStorage.setItem(TOKEN_KEY, $("token-input").value); } catch (_) { /* private mode */ }
    $("token-input").value = "";
    poll();
  });
  $("show-internal").addEventListener("change", drawTopics);
  loop();
});
