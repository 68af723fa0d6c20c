// The sandbox checkout page's script (served as it is, no build step): tells the checkout page how
// tall the page is (the frame starts at the spec's 450 px and grows to fit, as Paddle's does), posts
// the card number to the Pay call and sends the whole window, not just the frame, to where the
// answer says.
(() => {
  const data = JSON.parse(document.getElementById('sandbox-data').textContent);
  // Only to the shop's own page (same origin), which checks the origin and the sender in turn.
  const main = document.querySelector('main');
  if (window.parent !== window && main && typeof ResizeObserver === 'function') {
    const postHeight = () => {
      const height = Math.ceil(main.getBoundingClientRect().height);
      window.parent.postMessage({ type: 'kitshop:sandbox-height', height }, window.location.origin);
    };
    new ResizeObserver(postHeight).observe(main);
  }
  const form = document.getElementById('pay');
  if (!form) return;
  const message = document.getElementById('message');
  const button = form.querySelector('button');
  const fail = (text) => {
    message.textContent = text;
    message.hidden = false;
    button.disabled = false;
    button.textContent = 'Pay';
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    button.disabled = true;
    button.textContent = 'Processing…';
    message.hidden = true;
    fetch(data.payUrl, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-CSRF-TOKEN': data.csrf },
      body: JSON.stringify({ order_id: data.orderId, card_number: document.getElementById('card').value }),
    })
      .then((res) => res.json().then((body) => ({ ok: res.ok, body })))
      .then((result) => {
        if (result.ok) {
          window.top.location.href = result.body.redirect;
          return;
        }
        fail((result.body?.message ? result.body.message : 'The payment failed.').replace(/^card_number: /, ''));
      })
      .catch(() => fail('Network error. Please try again.'));
  });
})();
