// The class pages' own bits (the problem page is serving/static/page.js, both servers'): a form
// that changes much asks first, and a contest's time left is counted down.
// A form that changes much (Rejudge all) asks first.
document.querySelectorAll("form[data-confirm]").forEach((form) => {
  form.addEventListener("submit", (event) => {
    if (!window.confirm(form.dataset.confirm)) event.preventDefault();
  });
});

// A contest's time left, counted down on the page (the server gave it when the page was made).
const left = document.getElementById("time-left");
if (left) {
  const ends = Date.now() + Number(left.dataset.seconds) * 1000;
  const tick = () => {
    const s = Math.max(0, Math.round((ends - Date.now()) / 1000));
    const two = (n) => String(n).padStart(2, "0");
    left.textContent = s ? `${Math.floor(s / 3600)}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`
      : (left.dataset.over || "over");
    if (s) setTimeout(tick, 1000);
  };
  tick();
}
