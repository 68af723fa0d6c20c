// Starts the app's modules once the server-rendered page has been painted (served as it is, no
// build step; the page shell writes this tag in place of Vite's entry script, see `builtTemplate`
// in src/server/server.ts and decision 015). The page is complete without its scripts: on a slow
// phone they would only take bandwidth from the stylesheet, the typeface and the images the first
// screen shows. A screen the browser renders itself (an empty #root) starts at once.
(() => {
  // The data layer exists from the page's first script on, as Google's own snippet makes it: what
  // reads or pushes to it before the app runs finds it (the app's events follow once it runs).
  window.dataLayer = window.dataLayer || [];
  // A sale link's `?code=` is remembered for the cart here, before anything else loads, as the app
  // does on every address it shows (`rememberCodeFromLink`): a visitor who moves on before the app
  // has started keeps the code.
  try {
    const code = new URLSearchParams(window.location.search).get('code')?.trim();
    if (code && /^[A-Za-z0-9_-]{2,40}$/.test(code)) window.localStorage.setItem('discountCode', code);
  } catch {
    // storage refused: the cart's own field still takes the code
  }
  // A link that carries the stored return path (Google sign-in) is drawn by the server without it,
  // since it lives in this browser's storage: clicked before the app has drawn it again, it gets
  // it here (the server checks the value, as it does the app's).
  document.addEventListener(
    'click',
    (event) => {
      const link = event.target instanceof Element ? event.target.closest('a[data-return-path]') : null;
      if (!link) return;
      let stored = null;
      try {
        stored = window.localStorage.getItem('returnPath');
      } catch {
        // storage refused: the link goes as it is, to the default screen
      }
      if (!stored) return;
      const url = new URL(link.href);
      if (url.searchParams.get('returnPath')) return;
      url.searchParams.set('returnPath', stored.replace(/^\//, ''));
      link.href = url.href;
    },
    true,
  );
  const tag = document.currentScript;
  const entry = tag.dataset.entry;
  const modules = (tag.dataset.modules ?? '').split(' ').filter(Boolean);
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    for (const href of modules) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.append(link);
    }
    const script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = entry;
    document.head.append(script);
  };
  const painted = () => performance.getEntriesByName('first-contentful-paint').length > 0;
  const canWatch =
    typeof PerformanceObserver === 'function' && PerformanceObserver.supportedEntryTypes?.includes('paint');
  // A tab opened in the background paints nothing until it is shown: it starts anyway. So does an
  // address with a query: the app has something to do with it at once (a sale link's `?code=` is
  // remembered for the cart, and must be even if the visitor moves on before the paint).
  const now = !document.getElementById('root')?.firstElementChild || !canWatch || painted() || document.hidden;
  if (now || window.location.search) {
    start();
    return;
  }
  new PerformanceObserver((list, observer) => {
    if (list.getEntriesByName('first-contentful-paint').length === 0) return;
    observer.disconnect();
    start();
  }).observe({ type: 'paint', buffered: true });
  // Whatever happens to the paint, the page becomes interactive.
  setTimeout(start, 3_000);
})();
