// An evening's recap, shared: its picture and lines through the phone's own share sheet
// (Web Share) where it has one; the text copied where it can be. The picture's download
// link works everywhere, with or without this script. Loaded by the recap page alone.
const shareButton = document.getElementById("share-recap");
if (shareButton) offerSharing(shareButton, document.getElementById("copy-recap"), document.getElementById("recap-said"));

function offerSharing(share, copy, said) {
  const text = share.dataset.text;
  const say = (key) => { said.textContent = said.dataset[key]; said.hidden = false; };

  // The picture is fetched before the tap: a phone shares only straight after one, so a
  // tap before it is here says so and shares nothing (the text alone would go silently).
  let files = null;  // null: the picture still on its way
  if (navigator.share) {
    share.hidden = false;
    fetch(share.dataset.picture).then((answer) => answer.ok ? answer.blob() : null).then((png) => {
      const file = png && new File([png], share.dataset.file, {type: "image/png"});
      files = file && navigator.canShare?.({files: [file]}) ? [file] : [];
    }).catch(() => { files = []; });
  }
  share.addEventListener("click", () => {
    if (files === null) return say("loading");
    navigator.share(files.length ? {text, files} : {text}).then(() => say("shared"), (error) => {
      if (error.name !== "AbortError") say("failed");  // closing the sheet says nothing
    });
  });

  // Over plain http (no secure context) there is no clipboard API: a selection is copied.
  function copyBySelection() {
    const field = document.createElement("textarea");
    field.value = text;
    field.setAttribute("readonly", "");
    field.style.position = "fixed";
    field.style.opacity = "0";
    document.body.append(field);
    field.select();
    const copied = document.execCommand("copy");
    field.remove();
    return copied;
  }
  if (navigator.clipboard || document.queryCommandSupported?.("copy")) copy.hidden = false;
  copy.addEventListener("click", () => {
    const copied = navigator.clipboard ? navigator.clipboard.writeText(text) : Promise.reject();
    copied.catch(() => { if (!copyBySelection()) throw new Error("not copied"); })
      .then(() => say("copied"), () => say("uncopied"));
  });
}
