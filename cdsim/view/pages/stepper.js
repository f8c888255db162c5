// cdsim pages: the step player every replay page shares (the controls of controls.html):
// first / previous / next / last, play and pause, the slider, the keys (left and right arrow,
// Home, End, space) and the step in the address (#step=N, counted from 1, written once the
// steps settle: a browser throttles a page that rewrites its address hundreds of times in a
// few seconds, as a held arrow key or a played game does). A game's script
// keeps only what it draws: it calls stepper() once with its number of steps, draw(i) (the
// page at step i, counted from 0), title(i) (the step's label) and the play interval in ms.
function stepper(opts) {
  const last = opts.count - 1;
  const byId = (id) => document.getElementById(id);
  const slider = byId("slider");
  const button = byId("play");
  let at = 0;
  let timer = null;
  let address = null;

  function go(i) {
    at = Math.max(0, Math.min(last, i));
    opts.draw(at);
    const label = byId("step-label");
    label.textContent = opts.title(at);
    label.dataset.step = String(at);
    byId("step-count").textContent = `step ${at + 1} of ${opts.count}`;
    slider.value = String(at);
    byId("first").disabled = byId("prev").disabled = at === 0;
    byId("last").disabled = byId("next").disabled = at === last;
    clearTimeout(address);
    address = setTimeout(() => {
      if (history.replaceState) history.replaceState(null, "", `#step=${at + 1}`);
    }, 250);
  }

  function play() {
    if (timer) {
      clearInterval(timer);
      timer = null;
      button.classList.remove("on");
      button.title = "play (space)";
      return;
    }
    if (at === last) go(0);
    button.classList.add("on");
    button.title = "pause (space)";
    timer = setInterval(() => {
      if (at >= last) play();
      else go(at + 1);
    }, opts.interval);
  }

  slider.max = String(last);
  slider.addEventListener("input", () => go(Number(slider.value)));
  byId("first").addEventListener("click", () => go(0));
  byId("prev").addEventListener("click", () => go(at - 1));
  byId("next").addEventListener("click", () => go(at + 1));
  byId("last").addEventListener("click", () => go(last));
  button.addEventListener("click", play);
  document.addEventListener("keydown", (e) => {
    if (e.target === slider || e.altKey || e.ctrlKey || e.metaKey) return;
    const moves = {ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: last};
    if (e.key in moves) {
      e.preventDefault();
      go(moves[e.key]);
    } else if (e.key === " ") {
      e.preventDefault();
      play();
    }
  });
  const hash = /step=(\d+)/.exec(location.hash);
  go(hash ? Number(hash[1]) - 1 : 0);
  document.body.dataset.stepper = "shared";
  document.body.dataset.ready = "1";
}
