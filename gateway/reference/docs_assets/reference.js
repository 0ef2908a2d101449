// Starts Scalar's API reference with the configuration the gateway wrote into the page, and
// resolves the introduction's "#op/<METHOD><path>" links to the operation's own anchor
// (Scalar's anchors carry the tag, which the introduction does not know).
(function () {
  var configuration = JSON.parse(document.getElementById('reference-configuration').textContent);
  Scalar.createApiReference('#reference', configuration);
  document.addEventListener('click', function (event) {
    var link = event.target.closest && event.target.closest('a[href^="#op/"]');
    if (!link) return;
    var wanted = link.getAttribute('href').slice('#op/'.length);
    var target = document.querySelector('[id$="/' + CSS.escape(wanted) + '"]');
    if (!target) return;
    event.preventDefault();
    history.pushState(null, '', '#' + target.id);
    target.scrollIntoView();
  });
})();
