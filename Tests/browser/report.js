// Tells the observer what the page saw (kind: load or change, the state its media queries or
// ambience.js give), with the moment in milliseconds since the epoch; and takes the
// observer's commands (reload, open a window), so the test needs no DevTools of its own.
const pageID = new URLSearchParams(location.search).get("id") || "main";
// Reports go out in order, each sent again until the observer has it: one lost while the
// browser's network service restarts (it does, on a first start under emulation) would leave
// the test waiting for a load the page made.
let delivered = Promise.resolve();
function report(kind, state, details) {
  const body = JSON.stringify(
    Object.assign({ id: pageID, kind, state, at: performance.timeOrigin + performance.now() }, details));
  delivered = delivered.then(async () => {
    for (;;) {
      try {
        await fetch("/report", { method: "POST", body, keepalive: true });
        return;
      } catch (error) {
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  });
}
async function takeCommands() {
  for (;;) {
    let command = "";
    try {
      const response = await fetch("/command?id=" + encodeURIComponent(pageID));
      command = await response.text();
    } catch (error) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      continue;
    }
    if (command === "reload") {
      location.reload();
      return;
    }
    if (command.startsWith("open ")) {
      const name = command.slice(5);
      const url = new URL(location.href);
      url.searchParams.set("id", name);
      window.open(url.href, name, "popup,width=400,height=300");
    }
  }
}
takeCommands();
