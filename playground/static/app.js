// Geotable playground: the loopback Discord's channels drawn the way Discord's client draws them, and what a
// member does here sent as a real interaction (see playground/server.py). No build step, no dependencies.
"use strict";

const $ = (selector) => document.querySelector(selector);
const state = {
  bot: null, status: "starting", channels: [], members: [], commands: [],
  messages: new Map(),  // id -> {message, only_for}
  notices: [],          // refused requests and failed interactions, in the channels they concern
  failedOn: new Map(),  // message id -> member whose click on it failed ("This interaction failed")
  dismissed: new Set(), unread: new Set(), channel: null, member: null, stuck: true,
  language: "en", languages: [], greetings: {},  // the members' and the server's language; the bot's hello in each
  words: {},  // the page's own words in each language (playground/words.py)
};
const COLOURS = ["#e67e22", "#2ecc71", "#3498db", "#e91e63", "#9b59b6", "#f1c40f", "#1abc9c"];

// --- small helpers ----------------------------------------------------------------------------------------
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value == null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "html") el.innerHTML = value;
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) if (child != null && child !== false) el.append(child);
  return el;
}
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const byId = (a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1);
const member = (id) => state.members.find((m) => m.id === String(id));
const channel = (id) => state.channels.find((c) => c.id === String(id));
const nameOf = (user) => user.global_name || user.username;

function t(english, fills = {}) {
  // the page's own words in the language picked above (playground/words.py); a fill may be an element, and
  // then the sentence comes back as a list of strings and elements (h() takes both)
  const parts = (state.words[state.language]?.[english] ?? english).split(/\{(\w+)\}/);
  const out = parts.map((part, i) => (i % 2 ? fills[part] ?? `{${part}}` : part)).filter((part) => part !== "");
  return out.every((part) => typeof part === "string") ? out.join("") : out;
}

function slash(path) {
  // "/play geek-out" as a Discord client in the page's language names it ("/spielen geek-out")
  let specs = state.commands;
  return "/" + path.split(" ").map((name) => {
    const spec = specs?.find((c) => c.name === name);
    specs = spec?.options;
    return spec ? said(spec, "name") : name;
  }).join(" ");
}

function avatar(user, small = false) {
  const colour = user.bot ? "#5865f2" : COLOURS[state.members.findIndex((m) => m.id === user.id) % COLOURS.length];
  return h("div", { class: small ? "avatar small" : "avatar", style: `background:${colour}` }, nameOf(user)[0]);
}

async function post(path, body) {
  const response = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
                                       body: JSON.stringify({ member: state.member, channel: state.channel, ...body }) });
  const answer = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (answer.error) throw new Error(answer.error);
  return answer;
}

// --- Discord's markdown, mentions and timestamps ---------------------------------------------------------
function markdown(text) {
  let code = null;
  const lines = [];
  for (const line of esc(text).split("\n")) {
    if (line.startsWith("```")) {
      if (code) { lines.push(`<pre>${code.join("\n")}</pre>`); code = null; } else code = [];
      continue;
    }
    if (code) { code.push(line); continue; }
    let m;
    if ((m = line.match(/^(#{1,3}) (.*)/))) lines.push(`<div class="h${m[1].length}">${inline(m[2])}</div>`);
    else if ((m = line.match(/^-# (.*)/))) lines.push(`<div class="sub">${inline(m[1])}</div>`);
    else if ((m = line.match(/^&#62; (.*)/))) lines.push(`<div class="quote">${inline(m[1])}</div>`);
    else if ((m = line.match(/^\s*[-*] (.*)/))) lines.push(`<div class="line">• ${inline(m[1])}</div>`);
    else lines.push(`<div class="line">${inline(line)}</div>`);
  }
  if (code) lines.push(`<pre>${code.join("\n")}</pre>`);
  return lines.join("");
}

function inline(s) {
  const kept = [];  // pieces of finished HTML that the emphasis rules must not touch
  const keep = (html) => `\u0000${kept.push(html) - 1}\u0000`;
  s = s.replace(/`([^`]+)`/g, (_, c) => keep(`<code>${c}</code>`))
    .replace(/\[([^\]]+)\]\((https?:[^)\s]+)\)/g, (_, t, u) => keep(link(u, t)))
    .replace(/https?:\/\/[^\s<)]+/g, (u) => keep(link(u)))
    .replace(/&#60;@!?(\d+)&#62;/g, (_, id) => keep(mention(id)))
    .replace(/&#60;#(\d+)&#62;/g, (_, id) => keep(channelMention(id)))
    .replace(/&#60;t:(-?\d+)(?::([tTdDfFR]))?&#62;/g, (_, t, style) => keep(timestamp(+t, style || "f")))
    .replace(/\*\*(.+?)\*\*/g, "<b>$1</b>").replace(/__(.+?)__/g, "<u>$1</u>").replace(/~~(.+?)~~/g, "<s>$1</s>")
    .replace(/(^|[^\w*])\*(?=\S)(.+?)\*(?!\w)/g, "$1<i>$2</i>").replace(/(^|\W)_(?=\S)(.+?)_(?!\w)/g, "$1<i>$2</i>");
  return s.replace(/\u0000(\d+)\u0000/g, (_, i) => kept[i]);
}

function link(url, text) {
  const jump = url.match(/^https:\/\/discord\.com\/channels\/\d+\/(\d+)\/(\d+)/);
  if (jump) {  // a message link: Discord shows it as a chip that jumps there
    return `<a class="mention" data-channel="${jump[1]}" data-jump="${jump[2]}">#${esc(channel(jump[1])?.name ?? "unknown")} › 💬</a>`;
  }
  return `<a href="${url}" target="_blank" rel="noreferrer">${text ?? url}</a>`;
}

function channelMention(id) {
  // <#id>: a chip that jumps to the channel or thread (a thread's with Discord's thread icon)
  const c = channel(id);
  return `<span class="mention" data-channel="${id}">${c?.thread_of ? "🧵 " : "#"}${esc(c?.name ?? "unknown")}</span>`;
}

function mention(id) {
  const who = id === state.bot?.id ? state.bot : member(id);
  return `<span class="mention">@${esc(who ? nameOf(who) : "unknown-user")}</span>`;
}

function locale() {
  // dates and times as a Discord client in the page's language writes them (not the browser's own language)
  return DISCORD_LOCALE[state.language] ?? "en-US";
}

function timestamp(seconds, style) {
  const date = new Date(seconds * 1000);
  const text = style === "R" ? relative(seconds) : style.toLowerCase() === "t"
    ? date.toLocaleTimeString(locale(), { hour: "2-digit", minute: "2-digit", second: style === "T" ? "2-digit" : undefined })
    : style.toLowerCase() === "d" ? date.toLocaleDateString(locale()) : date.toLocaleString(locale());
  return `<span class="ts" data-ts="${seconds}" data-style="${style}" title="${esc(date.toLocaleString(locale()))}">${esc(text)}</span>`;
}

function relative(seconds) {
  const delta = Math.round(seconds - Date.now() / 1000);
  const units = [["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];
  const [unit, size] = units.find(([, size]) => Math.abs(delta) >= size) ?? ["second", 1];
  return new Intl.RelativeTimeFormat(locale(), { numeric: "auto" }).format(Math.trunc(delta / size), unit);
}

// --- messages ---------------------------------------------------------------------------------------------
function visible(item) {
  if (item.message) {
    return item.message.channel_id === state.channel && !state.dismissed.has(item.message.id)
      && (!item.only_for || item.only_for === state.member);
  }
  return (item.channel_id ?? state.channel) === state.channel && !item.message_id
    && (!item.only_for || item.only_for === state.member);
}

function renderChannel() {
  const box = $("#messages");
  box.replaceChildren();
  const items = [...state.messages.values(), ...state.notices].filter(visible)
    .sort((a, b) => byId(a.message ?? a, b.message ?? b));
  box.append(welcome());
  let previous = null;
  for (const item of items) {
    const el = item.message ? renderMessage(item, previous) : renderNotice(item);
    box.append(el);
    previous = item.message ? item : null;
  }
  state.stuck = true;
  stick();
}

function welcome() {
  // the top of every channel, as in Discord: what a newcomer does first (it scrolls away as messages come)
  const me = member(state.member);
  const others = state.members.filter((m) => m.role === "player" && m.id !== state.member).map(nameOf);
  const byRole = (role) => state.members.filter((m) => m.role === role).map(nameOf).join(", ");
  const tryIt = (path) => {
    const text = slash(path);
    return h("button", { class: "try", type: "button", title: t("Put it in the message box"),
                         onclick: () => { resetComposer(); $("#input").value = text; onInput(); } }, text);
  };
  const word = (key) => t(`button:${key}`);
  return h("section", { class: "welcome", "data-id": "0" },
    greeting(),
    h("div", { class: "h1" }, t("Welcome to #{channel}!", { channel: channel(state.channel)?.name ?? "" })),
    h("p", {}, t("New here? A first game in three steps:")),
    h("ol", {},
      h("li", {}, t("You play as {me}. Type {play} in the message box below, pick it with Enter and press Enter "
                    + "again: a lobby opens.", { me: h("b", {}, me ? nameOf(me) : t("a member")),
                                                 play: tryIt("play geek-out") })),
      h("li", {}, t("The other members under {play_as} ({others}) are the other players: click one to play as "
                    + "them and press {join} on the lobby. Back as {host}, press {start}.",
                    { play_as: t("Play as"), others: others.join(", "), join: h("b", {}, word("join")),
                      host: me ? nameOf(me) : t("the host"), start: h("b", {}, word("start")) })),
      h("li", {}, t("Take each turn with the board's buttons, as whoever is to act (the board says who)."))),
    h("p", {}, t("How a game is played: {rules}. Every command: type {slash}. {spectators} only watches; "
                 + "{moderators} is a moderator ({mod}).",
                 { rules: tryIt("rules"), slash: h("b", {}, "/"), spectators: byRole("spectator"),
                   moderators: byRole("moderator"), mod: h("b", {}, slash("mod")) })));
}

function renderPageWords() {
  // the page's words outside the channel, in the language picked
  document.documentElement.lang = state.language;
  $("#members h2").textContent = t("Play as");
  $("#topic").replaceChildren(...[t("The real Geotable bot, against a loopback Discord. Type {slash} for its "
                                    + "commands.", { slash: h("b", {}, "/") })].flat());
  $("#language").title = t("The language of every member's Discord and of the server: the bot answers in it");
  $("#restart").textContent = t("Restart bot");
  $("#restart").title = t("Stop the bot process and start it again on the same database");
  $("#input").placeholder = t("Message #{channel} (type / for commands)", { channel: channel(state.channel)?.name ?? "" });
  renderMembers();
  renderStatus($("#status").title);
}

function greeting() {
  // the bot's own hello (what it posts when it joins a server, and /help), in the language picked above
  const text = state.greetings[state.language];
  if (!text || !state.bot) return null;
  return h("div", { class: "greeting", lang: state.language }, avatar(state.bot),
    h("div", {}, h("div", { class: "author" }, nameOf(state.bot)), h("div", { class: "content", html: markdown(text) })));
}

function browserLanguage() {
  // the first of the browser's languages the bot speaks (else English)
  const codes = state.languages.map((l) => l.code);
  for (const tag of navigator.languages?.length ? navigator.languages : [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (codes.includes(base)) return base;
  }
  return "en";
}

function renderLanguages() {
  const select = $("#language");
  select.replaceChildren(...state.languages.map((l) => h("option", { value: l.code }, l.name)));
  select.value = state.language;
}

function place(el, id) {
  // new items arrive in order nearly always: walk back from the end to the first older one
  const box = $("#messages");
  let after = box.lastElementChild;
  while (after && BigInt(after.dataset.id) > BigInt(id)) after = after.previousElementSibling;
  after ? after.after(el) : box.prepend(el);
}

function upsert(item) {
  const message = item.message;
  const old = state.messages.get(message.id);
  state.messages.set(message.id, item);
  state.failedOn.delete(message.id);
  if (!visible(item)) {
    if (!old && (!item.only_for || item.only_for === state.member) && message.channel_id !== state.channel) {
      state.unread.add(message.channel_id);
      renderChannels();
    }
    return;
  }
  const existing = document.getElementById(`m-${message.id}`);
  if (existing) {
    existing.replaceWith(renderMessage(item, null, existing.classList.contains("compact")));
  } else {
    const prevEl = [...$("#messages").children].reverse().find((e) => BigInt(e.dataset.id) < BigInt(message.id));
    const el = renderMessage(item, prevEl?.classList.contains("msg") ? state.messages.get(prevEl.dataset.id) : null);
    place(el, message.id);
  }
  stick();
}

function renderMessage(item, previous, compact) {
  const m = item.message;
  const author = m.author;
  const answer = m.interaction_metadata;  // an answer to a member's command or click: never grouped
  if (compact === undefined) {
    compact = !answer && previous && !previous.message.interaction_metadata && previous.message.author.id === author.id
      && new Date(m.timestamp) - new Date(previous.message.timestamp) < 7 * 60 * 1000;
  }
  const mentioned = (m.mentions || []).some((u) => u.id === state.member);
  const el = h("div", { class: `msg${compact ? " compact" : ""}${mentioned ? " mentioned" : ""}${item.only_for ? " ephemeral" : ""}`,
                        id: `m-${m.id}`, "data-id": m.id, "data-author": nameOf(author) },
    avatar(author));
  const body = h("div", { class: "body" });
  if (m.interaction) {  // "Ana used /play geek-out"
    body.append(h("div", { class: "used" }, avatar(answer.user, true),
                  t("{member} used {command}", { member: h("b", {}, nameOf(answer.user)),
                                                 command: h("span", { class: "cmd" }, slash(m.interaction.name)) })));
  } else if (answer?.interacted_message_id) {  // "Ana clicked" on that message: a jump to it
    const clicked = state.messages.get(answer.interacted_message_id)?.message;
    const what = (clicked && (clicked.embeds?.[0]?.title || layoutTitle(clicked) || clicked.content.split("\n")[0]))
      || t("a message");
    body.append(h("div", { class: "used" }, "↪ ", avatar(answer.user, true),
                  t("{member} clicked on {message}", { member: h("b", {}, nameOf(answer.user)),
                    message: h("a", { class: "cmd", "data-channel": m.channel_id, "data-jump": answer.interacted_message_id }, what) })));
  }
  if (!compact) {
    const time = new Date(m.timestamp);
    body.append(h("div", { class: "head" }, h("span", { class: "author" }, nameOf(author)),
                  author.bot && h("span", { class: "tag" }, "APP"),
                  h("time", { title: time.toLocaleString(locale()) }, t("Today at {time}", { time: time.toLocaleTimeString(locale(), { hour: "2-digit", minute: "2-digit" }) }))));
  }
  if (m.flags & 128) body.append(h("div", { class: "thinking" }, t("{bot} is thinking", { bot: nameOf(author) })));
  else if (m.content) {
    const content = h("div", { class: "content", html: markdown(m.content) });
    if (m.edited_timestamp) content.lastElementChild?.append(h("span", { class: "edited" }, t("(edited)")));
    body.append(content);
  }
  const shown = new Set();
  for (const embed of m.embeds || []) body.append(renderEmbed(embed, m, shown));
  const layout = m.flags & IS_COMPONENTS_V2;
  if (layout) body.append(...m.components.map((c) => (c.type === 17 ? renderContainer(m, c, shown) : renderPart(m, c, shown))).filter(Boolean));
  for (const att of m.attachments || []) {
    if (shown.has(att.id)) continue;
    body.append(/\.(png|gif|jpe?g|webp)$/i.test(att.filename)
      ? h("img", { class: "attachment", src: att.url, alt: att.filename, onload: stick })
      : h("a", { class: "file", href: att.url, download: att.filename }, `📄 ${att.filename}`));
  }
  if (!layout && m.components?.length) body.append(renderComponents(m));
  if (state.failedOn.get(m.id) === state.member) body.append(h("div", { class: "failed" }, t("This interaction failed")));
  if (item.only_for) {
    body.append(h("div", { class: "ephemeral-note" }, `👁 ${t("Only you can see this")} • `,
                   h("a", { onclick: () => { state.dismissed.add(m.id); el.remove(); } }, t("Dismiss message"))));
  }
  el.append(body);
  return el;
}

function renderEmbed(embed, message, shown) {
  const colour = embed.color != null ? `#${embed.color.toString(16).padStart(6, "0")}` : "#1e1f22";
  const image = (ref) => {
    if (!ref?.url) return null;
    const att = ref.url.startsWith("attachment://")
      ? (message.attachments || []).find((a) => a.filename === ref.url.slice(13)) : { url: ref.url };
    if (!att) return null;
    if (att.id) shown.add(att.id);
    return h("img", { class: "embed-image", src: att.url, alt: "", onload: stick });
  };
  return h("div", { class: "embed", style: `border-left-color:${colour}` },
    embed.author?.name && h("div", { class: "embed-footer" }, embed.author.name),
    embed.title && h("div", { class: "embed-title", html: embed.url ? link(embed.url, inline(esc(embed.title))) : inline(esc(embed.title)) }),
    embed.description && h("div", { class: "embed-desc", html: markdown(embed.description) }),
    embed.fields?.length > 0 && h("div", { class: "fields" }, embed.fields.map((f) => h("div", { class: f.inline ? "field inline" : "field" },
      h("div", { class: "field-name", html: inline(esc(f.name)) }), h("div", { html: markdown(f.value) })))),
    image(embed.image), image(embed.thumbnail),
    embed.footer?.text && h("div", { class: "embed-footer" }, embed.footer.text));
}

// --- Components V2 (the flag IS_COMPONENTS_V2): a container in its accent colour holding text displays, media
// galleries, sections with an accessory, separators and action rows. A container is drawn as an embed is (its
// heading as the title, its words and images in its body, its rows under it), so the page reads the same.
const IS_COMPONENTS_V2 = 1 << 15;

function layoutTitle(message) {
  if (!(message.flags & IS_COMPONENTS_V2)) return "";
  const first = JSON.stringify(message.components).match(/"content":"(#{1,3} [^"\\]*)/);
  return first ? first[1].replace(/^#+ /, "") : "";
}

function renderContainer(message, container, shown) {
  const colour = container.accent_color != null ? `#${container.accent_color.toString(16).padStart(6, "0")}` : "#1e1f22";
  const body = h("div", { class: "embed-desc layout-body" });
  const rows = [];
  let title = null;
  // an image under a heading shows as an embed's image; in a message of words (a panel, the standings) as an
  // attachment under them, as the classic messages showed them
  const first = (container.components || [])[0];
  const image = first?.type === 10 && /^#{1,3} /.test(first.content) ? "embed-image" : "attachment";
  for (const child of container.components || []) {
    if (child.type === 1) { rows.push(child); continue; }
    if (child.type === 10 && title === null && /^#{1,3} /.test(child.content)) {
      const [head, ...rest] = child.content.split("\n");
      title = h("div", { class: "embed-title", html: inline(esc(head.replace(/^#{1,3} /, ""))) });
      if (rest.length) body.append(h("div", { class: "text-display", html: markdown(rest.join("\n")) }));
      continue;
    }
    const part = renderPart(message, child, shown, image);
    if (part) body.append(part);  // append(null) would draw the word "null"
  }
  return h("div", { class: "embed container", style: `border-left-color:${colour}` }, title, body,
    rows.length > 0 && h("div", { class: "components" }, rows.map((row) => renderPart(message, row, shown))));
}

function renderPart(message, c, shown, image = "embed-image") {
  const media = (ref, description) => {
    const att = ref?.url?.startsWith("attachment://")
      ? (message.attachments || []).find((a) => a.filename === ref.url.slice(13)) : ref?.url && { url: ref.url };
    if (!att) return null;
    if (att.id) shown.add(att.id);
    return h("img", { class: image, src: att.url, alt: description || "", title: description || null, onload: stick });
  };
  switch (c.type) {
    case 1: return h("div", { class: "row" }, (c.components || []).map((x) => (x.type === 2 ? renderButton(message, x)
      : x.type === 3 ? renderSelect(message, x) : null)));
    case 9: return h("div", { class: "section" },
      h("div", { class: "section-text" }, (c.components || []).map((x) => renderPart(message, x, shown, image))),
      c.accessory?.type === 2 ? renderButton(message, c.accessory) : media(c.accessory?.media, c.accessory?.description));
    case 10: return h("div", { class: "text-display", html: markdown(c.content || "") });
    case 11: return media(c.media, c.description);
    case 12: return h("div", { class: "gallery" }, (c.items || []).map((item) => media(item.media, item.description)));
    case 14: return h("hr", { class: "separator" });
    case 13: {  // a file component: drawn where it stands, as Discord draws it (not as a stray attachment below)
      const att = (message.attachments || []).find((a) => `attachment://${a.filename}` === c.file?.url);
      if (!att) return null;
      shown.add(att.id);
      return h("a", { class: "file", href: att.url, download: att.filename }, `📄 ${att.filename}`);
    }
    case 17: return renderContainer(message, c, shown);
    default: return null;
  }
}

function renderNotice(notice) {
  return h("div", { class: `notice ${notice.kind}`, "data-id": notice.id },
           notice.kind === "failed" ? `⚠ ${notice.text} (only you can see this)` : `⛔ ${notice.text}`);
}

function stick() {
  const box = $("#messages");
  if (state.stuck) box.scrollTop = box.scrollHeight;
}

// --- buttons and menus: real interactions ------------------------------------------------------------------
const STYLES = { 1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link" };

function renderComponents(message) {
  return h("div", { class: "components" }, message.components.map((row) => h("div", { class: "row" },
    row.components.map((c) => (c.type === 2 ? renderButton(message, c) : c.type === 3 ? renderSelect(message, c) : null)))));
}

function renderButton(message, c) {
  const emoji = c.emoji && h("span", { class: "emoji" }, c.emoji.id ? `:${c.emoji.name}:` : c.emoji.name);
  if (c.style === 5) {
    return h("a", { class: "btn link", href: c.url, target: "_blank", rel: "noreferrer" }, emoji, c.label, " ↗");
  }
  return h("button", { class: `btn ${STYLES[c.style] || "secondary"}`, disabled: !!c.disabled, "data-custom-id": c.custom_id,
                       onclick: () => interact(message, c.custom_id) }, emoji, c.label);
}

function renderSelect(message, c) {
  const many = (c.max_values ?? 1) > 1;
  const chosen = new Set();
  const menu = h("div", { class: "select-menu", role: "listbox", hidden: true });
  const close = () => { menu.hidden = true; document.removeEventListener("click", outside, true); };
  const outside = (event) => { if (!wrap.contains(event.target)) close(); };
  for (const option of c.options || []) {
    const el = h("div", { class: "select-option", role: "option", "data-value": option.value },
      option.emoji && h("span", {}, option.emoji.name),
      h("div", {}, h("div", {}, option.label), option.description && h("div", { class: "opt-desc" }, option.description)));
    el.addEventListener("click", () => {
      if (!many) { close(); interact(message, c.custom_id, [option.value]); return; }
      chosen.has(option.value) ? chosen.delete(option.value) : chosen.add(option.value);
      el.classList.toggle("chosen", chosen.has(option.value));
    });
    menu.append(el);
  }
  if (many) {
    menu.append(h("div", { class: "select-done" }, h("button", { class: "btn primary", onclick: () => {
      if (chosen.size < (c.min_values ?? 1) || chosen.size > c.max_values) return;
      close(); interact(message, c.custom_id, [...chosen]);
    } }, t("Done"))));
  }
  const box = h("button", { class: "select-box", disabled: !!c.disabled, onclick: () => {
    if (!menu.hidden) return close();
    menu.hidden = false;
    menu.classList.toggle("up", box.getBoundingClientRect().bottom + 300 > $("#messages").getBoundingClientRect().bottom);
    document.addEventListener("click", outside, true);
  } }, h("span", {}, c.placeholder || t("Make a selection")), h("span", {}, "⌄"));
  const wrap = h("div", { class: "select", "data-custom-id": c.custom_id }, box, menu);
  return wrap;
}

async function interact(message, customId, values) {
  try {
    await post("/api/interact", { message: message.id, custom_id: customId, values });
  } catch (error) {
    showError(t("This interaction failed: {error}", { error: error.message }));
  }
}

// --- the message box: plain messages and slash commands -----------------------------------------------------
const composer = { command: null, picks: [], active: 0, choose: null, autocomplete: null };
const DISCORD_LOCALE = { de: "de", es: "es-ES", en: "en-US" };  // the page's language as a Discord client names it

function said(spec, key) {
  // a command's, option's or choice's name or description as a Discord client in the page's language shows it
  return spec[`${key}_localizations`]?.[DISCORD_LOCALE[state.language]] ?? spec[key];
}

function leaves() {
  const perms = BigInt(member(state.member)?.permissions ?? 0);
  const out = [];
  const add = (chain, required) => {  // path: the English names (what the interaction says), shown: the member's
    const spec = chain[chain.length - 1];
    if (required == null || (perms & BigInt(required)) === BigInt(required)) {
      out.push({ path: chain.map((c) => c.name).join(" "), shown: chain.map((c) => said(c, "name")).join(" "),
                 description: said(spec, "description"), options: spec.options || [] });
    }
  };
  for (const command of state.commands) {
    const subs = (command.options || []).filter((o) => o.type === 1 || o.type === 2);
    if (!subs.length) add([command], command.default_member_permissions);
    for (const sub of subs) {
      if (sub.type === 1) add([command, sub], command.default_member_permissions);
      else for (const leaf of sub.options || []) add([command, sub, leaf], command.default_member_permissions);
    }
  }
  return out.sort((a, b) => a.shown.localeCompare(b.shown));
}

function showPicker(title, picks, render, choose) {
  composer.picks = picks;
  composer.active = 0;
  composer.choose = choose;
  const picker = $("#picker");
  picker.hidden = !picks.length;
  picker.replaceChildren(h("h3", {}, title), ...picks.map((pick, i) => h("div", {
    class: i === 0 ? "pick active" : "pick", onmousedown: (event) => { event.preventDefault(); choose(pick); } }, render(pick))));
}

function hidePicker() { $("#picker").hidden = true; composer.picks = []; }

function movePick(step) {
  const items = [...$("#picker").querySelectorAll(".pick")];
  if (!items.length) return;
  items[composer.active].classList.remove("active");
  composer.active = (composer.active + step + items.length) % items.length;
  items[composer.active].classList.add("active");
  items[composer.active].scrollIntoView({ block: "nearest" });
}

function onInput() {
  const text = $("#input").value;
  if (!text.startsWith("/")) return hidePicker();
  const query = text.slice(1).trim().toLowerCase();
  const all = leaves();
  const starts = (c) => c.shown.startsWith(query) || c.path.startsWith(query);
  const picks = [...all.filter(starts), ...all.filter((c) => !starts(c) && (c.shown.includes(query) || c.path.includes(query)))];
  if (!state.commands.length) return showError(t("The bot has not registered any command yet."));
  showPicker(t("Commands: {bot}", { bot: state.bot ? nameOf(state.bot) : "Geotable" }), picks, (c) => [h("b", {}, `/${c.shown}`), h("span", {}, c.description)], chooseCommand);
}

function chooseCommand(command) {
  hidePicker();
  composer.command = command;
  $("#input").hidden = true;
  const fields = command.options.map((option) => optionField(option));
  const box = $("#command");
  const chip = h("span", { class: "chip", tabindex: 0, onkeydown: commandKey }, `/${command.shown}`);
  box.replaceChildren(chip, ...fields,
    h("span", { class: "hint" }, t("Enter to send, Esc to cancel")),
    h("button", { class: "cancel", title: t("Cancel"), onclick: resetComposer }, "✕"));
  box.hidden = false;
  const first = command.options.findIndex((o) => o.required);
  (box.querySelectorAll("[data-option]")[first < 0 ? 0 : first] ?? chip).focus();
}

function optionField(option) {
  let input;
  if (option.choices?.length || option.type === 5 || option.type === 6 || option.type === 7) {
    const choices = option.choices?.map((c) => [c.value, said(c, "name")])
      ?? (option.type === 5 ? [[true, t("True")], [false, t("False")]]
        : option.type === 6 ? state.members.map((m) => [m.id, nameOf(m)])
          : state.channels.map((c) => [c.id, `#${c.name}`]));
    input = h("select", {}, h("option", { value: "" }, ""), choices.map(([value, name]) => h("option", { value: JSON.stringify(value) }, name)));
  } else {
    const number = option.type === 4 || option.type === 10;
    input = h("input", { type: number ? "number" : "text", step: option.type === 4 ? 1 : "any",
                         min: option.min_value, max: option.max_value, placeholder: said(option, "description")?.slice(0, 40) });
    if (option.autocomplete) input.addEventListener("input", () => suggest(option, input));
  }
  input.dataset.option = option.name;
  input.dataset.type = option.type;
  input.addEventListener("keydown", commandKey);
  return h("label", { class: "option", title: said(option, "description") },
           h("span", { class: option.required ? "required" : "" }, said(option, "name")), input);
}

function optionValues() {
  const values = {};
  for (const input of $("#command").querySelectorAll("[data-option]")) {
    const raw = input.dataset.value ?? input.value;
    if (raw === "") continue;
    const type = +input.dataset.type;
    values[input.dataset.option] = input.tagName === "SELECT" ? JSON.parse(raw)
      : type === 4 ? parseInt(raw, 10) : type === 10 ? parseFloat(raw) : raw;
  }
  return values;
}

async function suggest(option, input) {
  delete input.dataset.value;
  const asked = composer.autocomplete = input.value;
  await new Promise((resolve) => setTimeout(resolve, 150));
  if (asked !== composer.autocomplete) return;
  const { choices } = await post("/api/autocomplete", { command: composer.command.path, options: optionValues(), focused: option.name });
  if (asked !== composer.autocomplete || document.activeElement !== input) return;
  showPicker(said(option, "name"), choices, (c) => [h("b", {}, c.name)], (c) => {
    input.value = c.name;
    input.dataset.value = c.value;
    hidePicker();
  });
}

async function sendCommand() {
  const command = composer.command;
  const values = optionValues();
  const missing = command.options.filter((o) => o.required && !(o.name in values)).map((o) => said(o, "name"));
  if (missing.length) return showError(t("Fill in {options} first.", { options: missing.join(", ") }));
  try {
    await post("/api/slash", { command: command.path, options: values });
    resetComposer();
  } catch (error) {
    showError(error.message);
  }
}

function commandKey(event) {
  if (!$("#picker").hidden && composer.picks.length) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") { event.preventDefault(); return movePick(event.key === "ArrowDown" ? 1 : -1); }
    if (event.key === "Enter" || event.key === "Tab") { event.preventDefault(); return composer.choose(composer.picks[composer.active]); }
  }
  if (event.key === "Escape") return resetComposer();
  if (event.key === "Enter") { event.preventDefault(); sendCommand(); }
}

async function inputKey(event) {
  if (!$("#picker").hidden && composer.picks.length) return commandKey(event);
  if (event.key !== "Enter") return;
  const text = $("#input").value.trim();
  if (text.startsWith("/")) return showError(t("No command of the bot is called that: type / to see them all."));
  if (!text) return;
  try {
    await post("/api/say", { content: text });
    $("#input").value = "";
  } catch (error) {
    showError(error.message);
  }
}

function resetComposer() {
  composer.command = null;
  hidePicker();
  $("#command").hidden = true;
  $("#command").replaceChildren();
  $("#error").hidden = true;
  const input = $("#input");
  input.hidden = false;
  input.value = "";
  input.placeholder = t("Message #{channel} (type / for commands)", { channel: channel(state.channel)?.name ?? "" });
  input.focus();
}

function showError(text) {
  const el = $("#error");
  el.textContent = text;
  el.hidden = false;
}

// --- channels, members, the bot's status --------------------------------------------------------------------
function renderChannels() {
  // as Discord's sidebar: each channel, then its threads indented under it (an archived one dimmed, kept
  // here so that a finished table stays readable)
  const ordered = state.channels.filter((c) => !c.thread_of)
    .flatMap((c) => [c, ...state.channels.filter((t) => t.thread_of === c.id).sort(byId)]);
  $("#channels").replaceChildren(...ordered.map((c) => h("button", {
    class: `channel${c.thread_of ? " thread" : ""}${c.archived ? " archived" : ""}${c.id === state.channel ? " current" : ""}${state.unread.has(c.id) ? " unread" : ""}`,
    "data-channel": c.name, "data-id": c.id, title: c.name, onclick: () => switchChannel(c.id) },
    h("span", { class: "icon" }, c.thread_of ? "🧵" : "#"), h("span", { class: "name" }, c.name))));
}

function channelChanged(changed) {
  // a thread made, renamed or (un)archived: the sidebar and the mentions of it say so
  const old = channel(changed.id);
  if (old) Object.assign(old, changed); else state.channels.push(changed);
  renderChannels();
  document.querySelectorAll(`#messages .mention[data-channel="${changed.id}"]:not([data-jump])`)
    .forEach((el) => { el.outerHTML = channelMention(changed.id); });
  if (changed.id === state.channel) $("#channel-name").textContent = changed.name;
}

function channelGone(id) {
  // a deleted thread or channel: gone from the sidebar with its messages; whoever was in it is taken to its
  // channel (else the first)
  const gone = channel(id);
  if (!gone) return;
  const ids = new Set(state.channels.filter((c) => c.id === id || c.thread_of === id).map((c) => c.id));
  state.channels = state.channels.filter((c) => !ids.has(c.id));
  for (const [key, item] of state.messages) if (ids.has(item.message.channel_id)) state.messages.delete(key);
  state.unread.delete(id);
  if (!channel(state.channel)) switchChannel(channel(gone.thread_of) ? gone.thread_of : state.channels[0].id);
  else renderChannels();
}

function renderMembers() {
  $("#member-list").replaceChildren(...state.members.map((m) => h("button", {
    class: `member${m.id === state.member ? " current" : ""}`, "data-member": nameOf(m),
    onclick: () => switchMember(m.id) }, avatar(m, true), nameOf(m), h("span", { class: "role" }, t(m.role)))));
}

function switchChannel(id) {
  if (!channel(id)) return;  // a mention of a channel this server does not have (any more)
  $("#app").classList.remove("drawer");
  state.channel = id;
  state.unread.delete(id);
  $("#channel-name").textContent = channel(id).name;
  $("#channel-name").classList.toggle("thread", !!channel(id).thread_of);
  renderChannels();
  renderChannel();
  resetComposer();
}

function switchMember(id) {
  $("#app").classList.remove("drawer");
  state.member = id;
  renderMembers();
  renderChannel();
  resetComposer();
}

function renderStatus(text) {
  const el = $("#status");
  const words = { online: t("{bot} online", { bot: state.bot ? nameOf(state.bot) : "bot" }), restarting: t("restarting…"),
                  starting: t("starting…"), offline: t("bot offline"), disconnected: t("playground stopped") };
  el.className = state.status;
  el.textContent = words[state.status] ?? state.status;
  el.title = text || "";
  $("#restart").disabled = state.status === "restarting" || state.status === "disconnected";
}

// --- the live channel ------------------------------------------------------------------------------------------
function handle(event) {
  if (event.type === "hello") {
    Object.assign(state, { bot: event.bot, status: event.status, channels: event.channels,
                           members: event.members, commands: event.commands, notices: event.notices,
                           messages: new Map(event.messages.map((e) => [e.message.id, e])) });
    $("#guild").textContent = event.guild.name;
    Object.assign(state, { language: event.language, languages: event.languages, greetings: event.greetings,
                           words: event.words });
    renderLanguages();
    const wanted = browserLanguage();
    if (!event.language_chosen && wanted !== event.language) {
      post("/api/language", { language: wanted }).catch((error) => showError(error.message));
    }
    state.member = state.members.some((m) => m.id === state.member) ? state.member : state.members[0].id;
    renderStatus();
    renderPageWords();
    switchChannel(channel(state.channel) ? state.channel : state.channels[0].id);
  } else if (event.type === "message") {
    upsert(event);
  } else if (event.type === "delete") {
    state.messages.delete(event.id);
    document.getElementById(`m-${event.id}`)?.remove();
  } else if (event.type === "notice") {
    const notice = event.notice;
    state.notices.push(notice);
    if (notice.message_id) {
      state.failedOn.set(notice.message_id, notice.only_for);
      const item = state.messages.get(notice.message_id);
      const el = document.getElementById(`m-${notice.message_id}`);
      if (item && el) el.replaceWith(renderMessage(item, null, el.classList.contains("compact")));
    } else if (visible(notice)) {
      place(renderNotice(notice), notice.id);
      stick();
    }
  } else if (event.type === "channel") {
    channelChanged(event.channel);
  } else if (event.type === "channel_delete") {
    channelGone(event.id);
  } else if (event.type === "language") {
    state.language = event.language;
    $("#language").value = event.language;
    renderPageWords();
    renderChannel();
  } else if (event.type === "bot") {
    state.status = event.status;
    state.commands = event.commands;
    renderStatus(event.text);
  }
}

function connect() {
  const socket = new WebSocket(`ws://${location.host}/api/live`);
  socket.onmessage = (event) => handle(JSON.parse(event.data));
  socket.onclose = () => {
    state.status = "disconnected";
    renderStatus(t("The playground is not running; this page reconnects when it is back."));
    setTimeout(connect, 1000);
  };
}

document.addEventListener("DOMContentLoaded", () => {
  $("#input").addEventListener("input", onInput);
  $("#input").addEventListener("keydown", inputKey);
  $("#messages").addEventListener("scroll", () => {
    const box = $("#messages");
    state.stuck = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
  });
  $("#messages").addEventListener("click", (event) => {
    const target = event.target;
    if (target.matches(".embed-image, .attachment")) {
      $("#lightbox img").src = target.src;
      $("#lightbox").hidden = false;
    } else if (target.dataset.channel) {
      switchChannel(target.dataset.channel);
      const el = target.dataset.jump && document.getElementById(`m-${target.dataset.jump}`);
      if (el) {
        state.stuck = false;
        el.scrollIntoView({ block: "center" });
        el.classList.add("flash");
        setTimeout(() => el.classList.remove("flash"), 1500);
      }
    }
  });
  $("#lightbox").addEventListener("click", () => { $("#lightbox").hidden = true; });
  $("#menu").addEventListener("click", () => $("#app").classList.toggle("drawer"));  // a phone: the sidebar slides in
  document.addEventListener("click", (event) => {  // ... and a tap beside it closes it again (that tap only)
    if (!$("#app").classList.contains("drawer") || event.target.closest("#sidebar, #menu")) return;
    event.preventDefault();
    event.stopPropagation();
    $("#app").classList.remove("drawer");
  }, true);
  $("#language").addEventListener("change", (event) => {
    post("/api/language", { language: event.target.value }).catch((error) => showError(error.message));
  });
  $("#restart").addEventListener("click", () => post("/api/restart", {}).catch((error) => showError(error.message)));
  setInterval(() => document.querySelectorAll('.ts[data-style="R"]').forEach((el) => {
    el.textContent = relative(+el.dataset.ts);
  }), 1000);
  connect();
});
