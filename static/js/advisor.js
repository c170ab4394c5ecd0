/* Copy buttons, and a visible message when an HTMX request fails (htmx itself swaps nothing then).
   Copy buttons start hidden (without JavaScript there is nothing to copy with) and copy the text of
   the element named by data-copy-target. No inline script, no eval: CSP-friendly. */
(function () {
  "use strict";

  function reveal(root) {
    root.querySelectorAll("button[data-copy-target]").forEach(function (button) {
      button.hidden = false;
    });
  }

  function announce(button, message) {
    var status = document.getElementById("copy-status");
    if (status) {
      status.textContent = message;
    }
    if (!button.dataset.label) {
      button.dataset.label = button.textContent;
    }
    button.textContent = message;
    window.setTimeout(function () {
      button.textContent = button.dataset.label;
    }, 2000);
  }

  function selectText(element) {
    var range = document.createRange();
    range.selectNodeContents(element);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-copy-target]");
    if (!button) {
      return;
    }
    var target = document.getElementById(button.dataset.copyTarget);
    if (!target) {
      return;
    }
    var text = target.textContent;
    var fallback = function () {
      selectText(target);
      announce(button, "Selected: press Ctrl+C");
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () {
        announce(button, "Copied");
      }, fallback);
    } else {
      fallback();
    }
  });

  function requestError(message) {
    var banner = document.getElementById("request-error");
    if (banner) {
      banner.textContent = message;
      banner.hidden = !message;
    }
  }

  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr ? event.detail.xhr.status : "?";
    requestError("The server could not answer (HTTP " + status + "). Reload the page to go on.");
  });
  document.addEventListener("htmx:sendError", function () {
    requestError("The server could not be reached. Check the connection, then try again.");
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful) {
      requestError("");
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    reveal(document);
  });
  document.addEventListener("htmx:load", function (event) {
    reveal(event.target);
  });
})();
