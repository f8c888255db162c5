// cdsim pages: what every page's script shares, inlined first on any game's replay and
// component sheet (the page's own scripts follow). Plain JS, no library.
"use strict";

const SEAT_COLORS = ["#d7263d", "#1b6ec2", "#f2a900", "#6a3fa0"];

function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({
    "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
}

function f1(x) {  // short numbers keep the markup small
  return Math.round(x * 10) / 10;
}
