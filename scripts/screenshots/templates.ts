import { company, date, emailOf, person, series, type Theme } from './data.ts';

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

function css(t: Theme) {
  const bg = t.dark ? '#0b1120' : '#f6f7fb';
  const panel = t.dark ? '#111a2e' : '#ffffff';
  const ink = t.dark ? '#e2e8f0' : '#1f2937';
  const muted = t.dark ? '#8b9bb4' : '#6b7280';
  const line = t.dark ? '#1e2a44' : '#e5e7eb';
  return `*{box-sizing:border-box;margin:0}body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;background:${bg};color:${ink};width:1280px;height:800px;overflow:hidden}
.app{display:flex;height:800px}.side{width:230px;background:${t.dark ? '#0a0f1c' : '#111827'};color:#cbd5e1;padding:22px 16px;flex-shrink:0}
.logo{display:flex;gap:10px;align-items:center;font-weight:700;color:#fff;font-size:16px;margin-bottom:28px}.logo i{width:30px;height:30px;border-radius:8px;background:${t.accent};display:inline-block}
.side a{display:block;padding:9px 12px;border-radius:8px;color:#cbd5e1;text-decoration:none;margin-bottom:4px}.side a.on{background:rgba(255,255,255,.1);color:#fff;font-weight:600}
.main{flex:1;padding:26px 32px;overflow:hidden}.top{display:flex;justify-content:space-between;align-items:center;margin-bottom:22px}
h1{font-size:22px;font-weight:700}.sub{color:${muted};font-size:13px}.btn{background:${t.accent};color:#fff;border-radius:8px;padding:8px 14px;font-weight:600;font-size:13px;display:inline-block}
.ghost{background:transparent;border:1px solid ${line};color:${ink}}.card{background:${panel};border:1px solid ${line};border-radius:12px;padding:18px}
.grid{display:grid;gap:16px}.g4{grid-template-columns:repeat(4,1fr)}.g3{grid-template-columns:repeat(3,1fr)}.g2{grid-template-columns:2fr 1fr}
.stat b{display:block;font-size:24px;margin-top:6px}.up{color:#16a34a;font-size:12px;font-weight:600}.down{color:#dc2626;font-size:12px;font-weight:600}
table{width:100%;border-collapse:collapse}th{text-align:left;color:${muted};font-weight:600;font-size:12px;text-transform:uppercase;letter-spacing:.04em;padding:10px 12px;border-bottom:1px solid ${line}}
td{padding:11px 12px;border-bottom:1px solid ${line}}.pill{display:inline-block;padding:2px 9px;border-radius:99px;font-size:12px;font-weight:600}
.ok{background:#dcfce7;color:#166534}.warn{background:#fef3c7;color:#92400e}.bad{background:#fee2e2;color:#991b1b}.info{background:#e0e7ff;color:#3730a3}
.muted{color:${muted}}.av{width:28px;height:28px;border-radius:50%;display:inline-grid;place-items:center;color:#fff;font-size:11px;font-weight:700;margin-right:8px;vertical-align:middle}
.field{margin-bottom:14px}.field label{display:block;font-weight:600;font-size:13px;margin-bottom:6px}.input{border:1px solid ${line};border-radius:8px;padding:9px 12px;background:${t.dark ? '#0b1120' : '#fff'};color:${muted}}
.mono{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12.5px}.bar{height:8px;border-radius:99px;background:${line};overflow:hidden}.bar i{display:block;height:100%;background:${t.accent}}`;
}

const AVATAR = ['#f59e0b', '#10b981', '#6366f1', '#ec4899', '#0ea5e9', '#8b5cf6', '#ef4444', '#14b8a6'];
const avatar = (i: number) => {
  const name = person(i);
  const initials = name
    .split(' ')
    .map((p) => p[0])
    .join('');
  return `<span class="av" style="background:${AVATAR[i % AVATAR.length]}">${initials}</span>${esc(name)}`;
};

function shell(t: Theme, active: string, title: string, subtitle: string, body: string, action = 'New') {
  const nav = t.nav.map((n) => `<a class="${n === active ? 'on' : ''}">${esc(n)}</a>`).join('');
  return `<!doctype html><html><head><style>${css(t)}</style></head><body><div class="app"><aside class="side"><div class="logo"><i></i>${esc(t.app)}</div>${nav}</aside>
<section class="main"><div class="top"><div><h1>${esc(title)}</h1><div class="sub">${esc(subtitle)}</div></div><span class="btn">${esc(action)}</span></div>${body}</section></div></body></html>`;
}

function chart(t: Theme, values: number[], height = 220) {
  const max = Math.max(...values) * 1.1;
  const w = 640;
  const step = w / (values.length - 1);
  const pts = values.map((v, i) => `${(i * step).toFixed(1)},${(height - (v / max) * height).toFixed(1)}`);
  const grid = [0.25, 0.5, 0.75].map(
    (f) => `<line x1="0" x2="${w}" y1="${height * f}" y2="${height * f}" stroke="${t.dark ? '#1e2a44' : '#eef0f4'}"/>`,
  );
  return `<svg viewBox="0 0 ${w} ${height}" width="100%" height="${height}" preserveAspectRatio="none">${grid.join('')}
<polygon points="0,${height} ${pts.join(' ')} ${w},${height}" fill="${t.accent}" fill-opacity=".12"/><polyline points="${pts.join(' ')}" fill="none" stroke="${t.accent}" stroke-width="3"/></svg>`;
}

function bars(t: Theme, values: number[], labels: string[]) {
  const max = Math.max(...values);
  return `<div style="display:flex;align-items:flex-end;gap:14px;height:200px">${values
    .map(
      (v, i) =>
        `<div style="flex:1;text-align:center"><div style="height:${Math.round((v / max) * 170)}px;background:${t.accent};opacity:${0.45 + (i / values.length) * 0.55};border-radius:6px 6px 0 0"></div><div class="muted" style="font-size:11px;margin-top:6px">${labels[i]}</div></div>`,
    )
    .join('')}</div>`;
}

const stats = (items: [string, string, string][]) =>
  `<div class="grid g4" style="margin-bottom:16px">${items
    .map(
      ([label, value, delta]) =>
        `<div class="card stat"><span class="muted">${label}</span><b>${value}</b><span class="${delta.startsWith('-') ? 'down' : 'up'}">${delta} vs last month</span></div>`,
    )
    .join('')}</div>`;

const table = (head: string[], rows: string[][]) =>
  `<div class="card" style="padding:6px 8px"><table><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`)
    .join('')}</tbody></table></div>`;

/** A status pill: the i-th of these [kind, text] pairs, over again when the rows outnumber them. */
const pillOf = (i: number, pills: [string, string][]) => {
  const [kind, text] = pills[i % pills.length]!;
  return `<span class="pill ${kind}">${text}</span>`;
};

const MONTHS = ['Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep'];

export function dashboard(t: Theme, kind: string) {
  if (kind === 'api') {
    const rows = ['/v1/events', '/v1/users/:id', '/v1/webhooks', '/v1/exports', '/v1/auth/token'].map((p, i) => [
      `<span class="mono">${p}</span>`,
      `${[412_908, 188_311, 92_770, 18_204, 66_019][i]!.toLocaleString('en-US')}`,
      `${[18, 24, 31, 210, 12][i]} ms`,
      `<span class="pill ${i === 3 ? 'warn' : 'ok'}">${['99.98', '99.95', '99.99', '98.70', '100.0'][i]}%</span>`,
    ]);
    return shell(
      t,
      'Overview',
      'Usage overview',
      'Production · last 30 days',
      `${stats([
        ['Requests', '778,212', '+18.2%'],
        ['p95 latency', '42 ms', '-6.1%'],
        ['Error rate', '0.04%', '-0.02%'],
        ['Active keys', '23', '+3'],
      ])}<div class="grid g2"><div class="card"><b>Requests per day</b>${chart(t, series(30, 18_000, 420))}</div><div class="card"><b>Status codes</b>${bars(t, [962, 21, 12, 5], ['2xx', '3xx', '4xx', '5xx'])}</div></div>
<div style="margin-top:16px">${table(['Endpoint', 'Requests', 'p95', 'Success'], rows)}</div>`,
      'Create key',
    );
  }
  const crm = kind === 'crm';
  const rows = [0, 1, 2, 3, 4].map((i) =>
    crm
      ? [
          avatar(i),
          company(i),
          `$${[48_000, 12_500, 86_000, 9_900, 31_200][i]!.toLocaleString('en-US')}`,
          pillOf(i, [
            ['info', 'Proposal'],
            ['warn', 'Negotiation'],
            ['ok', 'Won'],
            ['info', 'Qualified'],
            ['warn', 'Negotiation'],
          ]),
        ]
      : [
          `#${10_482 - i * 7}`,
          avatar(i + 2),
          date(i),
          `$${[249, 1_120, 89, 560, 1_980][i]!.toLocaleString('en-US')}.00`,
          pillOf(i, [
            ['ok', 'Paid'],
            ['ok', 'Paid'],
            ['warn', 'Pending'],
            ['bad', 'Refunded'],
            ['ok', 'Paid'],
          ]),
        ],
  );
  const saas = kind === 'saas';
  return shell(
    t,
    'Dashboard',
    crm ? 'Sales dashboard' : saas ? 'Team dashboard' : 'Dashboard',
    crm ? 'Q3 2025 · all pipelines' : 'Last 30 days',
    `${stats(
      crm
        ? [
            ['Open deals', '64', '+9'],
            ['Pipeline value', '$1.42M', '+12.4%'],
            ['Win rate', '31%', '+2.3%'],
            ['Avg. cycle', '23 days', '-4 days'],
          ]
        : saas
          ? [
              ['MRR', '$48,290', '+8.7%'],
              ['Active subscriptions', '1,284', '+64'],
              ['Churn', '2.1%', '-0.4%'],
              ['Trials', '212', '+31'],
            ]
          : [
              ['Revenue', '$126,480', '+14.2%'],
              ['Orders', '2,941', '+9.8%'],
              ['Avg. order', '$43.01', '+3.9%'],
              ['Refunds', '1.2%', '-0.3%'],
            ],
    )}<div class="grid g2"><div class="card"><b>${crm ? 'Closed revenue' : saas ? 'Monthly recurring revenue' : 'Revenue'}</b>${chart(t, series(24, 30_000, 1_500))}</div>
<div class="card"><b>${crm ? 'Deals by stage' : 'By month'}</b>${bars(t, series(6, 40, 9), crm ? ['Lead', 'Qual.', 'Prop.', 'Neg.', 'Won', 'Lost'] : MONTHS.slice(1))}</div></div>
<div style="margin-top:16px">${crm ? table(['Owner', 'Company', 'Value', 'Stage'], rows) : table(['Order', 'Customer', 'Date', 'Total', 'Status'], rows)}</div>`,
    crm ? 'New deal' : saas ? 'Invite member' : 'Export',
  );
}

export function list(t: Theme, kind: string) {
  const n = 11;
  const ids = Array.from({ length: n }, (_, i) => i);
  const views: Record<
    string,
    { active: string; title: string; sub: string; head: string[]; row: (i: number) => string[]; action: string }
  > = {
    projects: {
      active: 'Projects',
      title: 'Projects',
      sub: '8 active · 3 archived',
      head: ['Project', 'Owner', 'Progress', 'Due', 'Status'],
      row: (i) => [
        `<b>${['Website relaunch', 'Mobile onboarding', 'Billing migration', 'Q3 reporting', 'Partner portal', 'Support inbox', 'Data warehouse', 'Brand refresh', 'API v2', 'Hiring pipeline', 'SOC 2 prep'][i]}</b>`,
        avatar(i),
        `<div class="bar" style="width:140px"><i style="width:${((i * 23) % 90) + 10}%"></i></div>`,
        date(i),
        pillOf(i, [
          ['ok', 'On track'],
          ['info', 'In review'],
          ['warn', 'At risk'],
          ['ok', 'On track'],
          ['info', 'Planning'],
        ]),
      ],
      action: 'New project',
    },
    tasks: {
      active: 'Tasks',
      title: 'Tasks',
      sub: 'Website relaunch · 34 open',
      head: ['', 'Task', 'Assignee', 'Priority', 'Due'],
      row: (i) => [
        `<span style="display:inline-block;width:16px;height:16px;border:2px solid ${i % 4 === 0 ? t.accent : '#cbd5e1'};border-radius:4px;background:${i % 4 === 0 ? t.accent : 'transparent'}"></span>`,
        i === 2
          ? `<span class="input" style="display:inline-block;width:320px;color:inherit;border-color:${t.accent}">Write copy for the pricing page|</span>`
          : [
              'Set up staging environment',
              'Review navigation wireframes',
              '',
              'Migrate blog posts',
              'Fix form validation on mobile',
              'Add cookie banner',
              'Compress hero images',
              'Connect analytics',
              'QA checkout flow',
              'Redirect old URLs',
              'Launch checklist',
            ][i]!,
        avatar(i + 3),
        pillOf(i, [
          ['bad', 'High'],
          ['warn', 'Medium'],
          ['info', 'Low'],
        ]),
        date(i + 2),
      ],
      action: 'Add task',
    },
    contacts: {
      active: 'Contacts',
      title: 'Contacts',
      sub: '1,208 contacts · 86 added this month',
      head: ['Name', 'Company', 'Email', 'Last contacted', 'Tags'],
      row: (i) => [
        avatar(i),
        company(i),
        `<span class="muted">${emailOf(i)}</span>`,
        date(i),
        pillOf(i, [
          ['info', 'Lead'],
          ['ok', 'Customer'],
          ['warn', 'Follow-up'],
        ]),
      ],
      action: 'Add contact',
    },
    orders: {
      active: 'Orders',
      title: 'Orders',
      sub: '2,941 orders · filtered: last 30 days',
      head: ['Order', 'Customer', 'Date', 'Items', 'Total', 'Status'],
      row: (i) => [
        `<b>#${10_482 - i * 3}</b>`,
        avatar(i + 1),
        date(i),
        String((i % 4) + 1),
        `$${((i * 137) % 900) + 40}.${((i * 17) % 90) + 10}`,
        pillOf(i, [
          ['ok', 'Paid'],
          ['warn', 'Pending'],
          ['ok', 'Shipped'],
          ['info', 'Processing'],
          ['bad', 'Refunded'],
        ]),
      ],
      action: 'Export CSV',
    },
    'api-keys': {
      active: 'API keys',
      title: 'API keys',
      sub: 'Keys are shown once; store them in your secret manager',
      head: ['Name', 'Key', 'Scopes', 'Last used', 'Created'],
      row: (i) => [
        `<b>${['Production backend', 'Staging', 'Data export job', 'Mobile app', 'CI pipeline', 'Partner: Brightline', 'Analytics sync', 'Support tools', 'Webhook relay', 'Local dev', 'Billing worker'][i]}</b>`,
        `<span class="mono">rk_${i % 3 === 1 ? 'test' : 'live'}_${'8f3a91c2d4e5b6a7'.slice(i % 5, (i % 5) + 4)}••••••••</span>`,
        `<span class="pill info">${['read, write', 'read', 'export', 'read, write', 'deploy'][i % 5]}</span>`,
        i % 4 === 3 ? '<span class="muted">Never</span>' : `${((i * 7) % 50) + 2} min ago`,
        date(i),
      ],
      action: 'Create key',
    },
    'request-logs': {
      active: 'Request logs',
      title: 'Request logs',
      sub: 'Streaming · production',
      head: ['Time', 'Method', 'Path', 'Status', 'Latency', 'Key'],
      row: (i) => {
        const status = [200, 201, 200, 404, 200, 429, 200, 500, 200, 204, 200][i]!;
        return [
          `<span class="mono">14:${String(32 - i).padStart(2, '0')}:${String((i * 13) % 60).padStart(2, '0')}</span>`,
          `<span class="mono">${['GET', 'POST', 'GET', 'GET', 'PATCH', 'POST', 'GET', 'POST', 'GET', 'DELETE', 'GET'][i]}</span>`,
          `<span class="mono">${['/v1/events', '/v1/events', '/v1/users/u_81f2', '/v1/users/u_0000', '/v1/users/u_81f2', '/v1/exports', '/v1/webhooks', '/v1/exports', '/v1/events?limit=50', '/v1/webhooks/wh_12', '/v1/auth/token'][i]}</span>`,
          `<span class="pill ${status >= 500 ? 'bad' : status >= 400 ? 'warn' : 'ok'}">${status}</span>`,
          `<span class="mono">${[14, 22, 9, 6, 31, 3, 12, 480, 17, 11, 8][i]} ms</span>`,
          '<span class="mono muted">Production backend</span>',
        ];
      },
      action: 'Pause stream',
    },
    team: {
      active: 'Team',
      title: 'Team members',
      sub: '9 of 10 seats used on the Growth plan',
      head: ['Member', 'Email', 'Role', 'Last active', ''],
      row: (i) => [
        avatar(i + 4),
        `<span class="muted">${emailOf(i + 4)}</span>`,
        `<span class="pill ${i === 0 ? 'info' : 'ok'}">${i === 0 ? 'Owner' : i < 3 ? 'Admin' : 'Member'}</span>`,
        i === 8 ? '<span class="pill warn">Invited</span>' : `${((i * 3) % 20) + 1} h ago`,
        '<span class="muted">•••</span>',
      ],
      action: 'Invite member',
    },
  };
  const view = views[kind]!;
  return shell(t, view.active, view.title, view.sub, table(view.head, ids.map(view.row)), view.action);
}

export function pipeline(t: Theme) {
  const stages = ['Qualified', 'Proposal', 'Negotiation', 'Won'];
  const cols = stages
    .map((stage, s) => {
      const cards = [0, 1, 2, 3]
        .slice(0, 4 - (s % 2))
        .map((i) => {
          const k = s * 4 + i;
          return `<div class="card" style="padding:12px;margin-bottom:10px"><b>${company(k)}</b><div class="muted" style="font-size:12px;margin:2px 0 8px">${['Annual licence', 'Pilot expansion', 'Support renewal', 'New seats'][k % 4]}</div>
<div style="display:flex;justify-content:space-between;align-items:center"><span>$${(((k * 7919) % 60) + 5) * 1000}</span>${avatar(k).replace(/<\/span>.*/, '</span>')}</div></div>`;
        })
        .join('');
      return `<div style="flex:1;background:rgba(0,0,0,.035);border-radius:12px;padding:12px"><div style="display:flex;justify-content:space-between;margin-bottom:10px"><b>${stage}</b><span class="muted">${4 - (s % 2)}</span></div>${cards}</div>`;
    })
    .join('');
  return shell(
    t,
    'Deals',
    'Deal pipeline',
    'Drag deals between stages · $1.42M open',
    `<div style="display:flex;gap:14px">${cols}</div>`,
    'New deal',
  );
}

export function signIn(t: Theme) {
  return `<!doctype html><html><head><style>${css(t)}</style></head><body style="display:grid;place-items:center;background:linear-gradient(135deg,${t.accent}22,${t.dark ? '#0b1120' : '#f6f7fb'} 60%)">
<div class="card" style="width:400px;padding:32px"><div class="logo" style="color:inherit;justify-content:center"><i></i>${esc(t.app)}</div>
<h1 style="text-align:center;margin-bottom:6px">Welcome back</h1><p class="sub" style="text-align:center;margin-bottom:24px">Sign in to your account</p>
<div class="field"><label>Email</label><div class="input">${emailOf(2)}</div></div><div class="field"><label>Password</label><div class="input">••••••••••••</div></div>
<div style="display:flex;justify-content:space-between;margin-bottom:18px;font-size:13px"><span><input type="checkbox" checked> Remember me</span><span style="color:${t.accent}">Forgot password?</span></div>
<div class="btn" style="display:block;text-align:center;padding:11px">Sign in</div><div class="btn ghost" style="display:block;text-align:center;padding:10px;margin-top:10px">Continue with Google</div>
<p class="sub" style="text-align:center;margin-top:18px">No account? <span style="color:${t.accent};font-weight:600">Start a 14-day trial</span></p></div></body></html>`;
}

export function settings(t: Theme, kind: 'billing' | 'settings') {
  const body =
    kind === 'billing'
      ? `<div class="grid g3" style="margin-bottom:16px">${[
          ['Starter', '$19', '3 seats · 5 projects'],
          ['Growth', '$49', '10 seats · unlimited projects'],
          ['Scale', '$149', 'SSO · audit log · priority support'],
        ]
          .map(
            ([name, price, text], i) =>
              `<div class="card" style="${i === 1 ? `border:2px solid ${t.accent}` : ''}"><b>${name}</b>${i === 1 ? ' <span class="pill info">Current plan</span>' : ''}<div style="font-size:28px;font-weight:700;margin:8px 0">${price}<span class="muted" style="font-size:13px">/month</span></div><div class="muted">${text}</div></div>`,
          )
          .join('')}</div>
<div class="grid g2"><div class="card"><b>Invoices</b>${table(
          ['Date', 'Amount', 'Status', ''],
          [0, 1, 2, 3, 4].map((i) => [
            date(i),
            '$49.00',
            '<span class="pill ok">Paid</span>',
            `<span style="color:${t.accent}">PDF</span>`,
          ]),
        )}</div>
<div class="card"><b>Payment method</b><div class="input" style="margin:12px 0">Visa ending in 4242 · 08/28</div><b>Billing email</b><div class="input" style="margin-top:8px">${emailOf(1)}</div><div class="btn ghost" style="margin-top:16px">Manage in customer portal</div></div></div>`
      : `<div class="grid" style="grid-template-columns:200px 1fr"><div>${[
          'Profile',
          'Store',
          'Notifications',
          'Security',
          'API tokens',
        ]
          .map(
            (s, i) =>
              `<div style="padding:9px 12px;border-radius:8px;${i === 1 ? `background:${t.accent}18;color:${t.accent};font-weight:600` : ''}">${s}</div>`,
          )
          .join('')}</div>
<div class="card"><b style="font-size:16px">Store details</b><p class="sub" style="margin-bottom:18px">Shown on invoices and order e-mails</p><div class="grid" style="grid-template-columns:1fr 1fr">
${[
  ['Store name', 'Northwind Outdoor'],
  ['Support email', 'support@northwind.shop'],
  ['Currency', 'USD — US dollar'],
  ['Time zone', 'Europe/Berlin (UTC+2)'],
  ['Order prefix', '#NW-'],
  ['Low stock alert', '10 units'],
]
  .map(([l, v]) => `<div class="field"><label>${l}</label><div class="input">${v}</div></div>`)
  .join('')}</div>
<div class="field"><label>Dark mode</label><span style="display:inline-block;width:40px;height:22px;border-radius:99px;background:${t.accent}"></span></div><span class="btn">Save changes</span> <span class="btn ghost">Cancel</span></div></div>`;
  return shell(
    t,
    kind === 'billing' ? 'Billing' : 'Settings',
    kind === 'billing' ? 'Billing' : 'Settings',
    kind === 'billing' ? 'Plan, invoices and payment method' : 'Manage your store',
    body,
    kind === 'billing' ? 'Upgrade' : 'Save',
  );
}

export function landing(t: Theme) {
  return `<!doctype html><html><head><style>${css(t)}</style></head><body style="background:#0b1120;color:#e2e8f0">
<div style="display:flex;justify-content:space-between;align-items:center;padding:22px 64px"><div class="logo" style="margin:0"><i></i>${esc(t.app)}</div><div style="display:flex;gap:28px;color:#94a3b8"><span>Docs</span><span>Pricing</span><span>Changelog</span><span class="btn">Get API key</span></div></div>
<div style="padding:70px 64px 40px;display:grid;grid-template-columns:1.1fr 1fr;gap:48px;align-items:center"><div><span class="pill info">v1.6 · Webhooks with retries</span><h1 style="font-size:52px;line-height:1.05;margin:18px 0;color:#fff">The events API your product deserves</h1>
<p style="font-size:18px;color:#94a3b8;margin-bottom:28px">Ingest, query and stream events with a typed Go backend, API keys, rate limits and usage billing built in.</p><span class="btn" style="padding:12px 20px">Start for free</span> <span class="btn ghost" style="padding:12px 20px;color:#e2e8f0">Read the docs</span></div>
<div class="card mono" style="background:#111a2e;border-color:#1e2a44;line-height:1.8"><span style="color:#94a3b8">$ curl https://api.relay.dev/v1/events \\</span><br>&nbsp;&nbsp;-H "Authorization: Bearer rk_live_8f3a…" \\<br>&nbsp;&nbsp;-d '{"type":"signup","user":"u_81f2"}'<br><br><span style="color:#4ade80">{ "id": "evt_2Qk9", "status": "accepted" }</span></div></div>
<div class="grid g3" style="padding:10px 64px">${[
    ['Typed endpoints', 'OpenAPI spec generated from Go handlers; SvelteKit client stays in sync.'],
    ['Keys and limits', 'Hashed API keys with scopes, per-key rate limits and usage metering.'],
    ['Observability', 'Structured logs, request tracing and a live log viewer in the dashboard.'],
  ]
    .map(
      ([h, p]) =>
        `<div class="card" style="background:#111a2e;border-color:#1e2a44"><b style="color:#fff">${h}</b><p class="muted" style="margin-top:6px">${p}</p></div>`,
    )
    .join('')}</div></body></html>`;
}

export function phone(t: Theme, kind: string) {
  const screens: Record<string, string[]> = {
    onboarding: [
      `<div style="height:100%;display:flex;flex-direction:column;justify-content:flex-end;padding:28px;background:linear-gradient(180deg,${t.accent}33,#fff 55%)"><svg width="72" height="72" viewBox="0 0 24 24" fill="none" stroke="${t.accent}" stroke-width="2" stroke-linecap="round"><path d="M12 22V12"/><path d="M12 12C12 7 8 4 3 4c0 5 4 8 9 8z"/><path d="M12 14c0-4 3-7 9-7 0 5-4 7-9 7z"/></svg><h1 style="font-size:26px;margin:12px 0">Small habits, big change</h1><p class="sub" style="margin-bottom:24px">Track daily habits, keep your streaks and get gentle reminders.</p><div class="btn" style="text-align:center;padding:13px">Get started</div><p class="sub" style="text-align:center;margin-top:14px">I already have an account</p></div>`,
      `<div style="padding:28px"><h1 style="font-size:24px;margin:40px 0 8px">Sign in</h1><p class="sub" style="margin-bottom:22px">Welcome back to ${esc(t.app)}</p><div class="field"><label>Email</label><div class="input">${emailOf(3)}</div></div><div class="field"><label>Password</label><div class="input">••••••••</div></div><div class="btn" style="display:block;text-align:center;padding:12px">Sign in</div><div class="btn ghost" style="display:block;text-align:center;padding:12px;margin-top:10px">Continue with Apple</div></div>`,
    ],
    home: [
      `<div style="padding:22px"><p class="sub">Tuesday, 9 September</p><h1 style="font-size:24px;margin-bottom:16px">Good morning, Priya</h1>${[
        'Morning run',
        'Read 20 pages',
        'Drink water',
        'Meditate',
        'No phone after 10pm',
      ]
        .map(
          (h, i) =>
            `<div class="card" style="display:flex;align-items:center;gap:12px;padding:12px;margin-bottom:10px"><span style="width:26px;height:26px;border-radius:50%;border:2px solid ${t.accent};background:${i < 2 ? t.accent : 'transparent'}"></span><div style="flex:1"><b>${h}</b><div class="sub">${[12, 7, 21, 3, 5][i]}-day streak</div></div></div>`,
        )
        .join('')}</div>`,
      `<div style="padding:22px"><p class="sub">‹ Habits</p><h1 style="font-size:24px;margin:10px 0">Morning run</h1><div class="card" style="margin-bottom:12px"><div class="sub">Current streak</div><div style="font-size:34px;font-weight:700;color:${t.accent}">12 days</div></div><div class="card"><b>September</b><div style="display:grid;grid-template-columns:repeat(7,1fr);gap:6px;margin-top:10px">${Array.from({ length: 28 }, (_, i) => `<span style="height:26px;border-radius:6px;background:${i % 5 === 3 ? '#eef0f4' : t.accent};opacity:${i % 5 === 3 ? 1 : 0.35 + (i % 4) * 0.2}"></span>`).join('')}</div></div></div>`,
    ],
    paywall: [
      `<div style="padding:26px;text-align:center"><svg width="56" height="56" viewBox="0 0 24 24" style="margin-top:20px" fill="${t.accent}"><path d="M12 2l2.4 6.9H22l-6 4.5 2.3 7.1L12 16.1l-6.3 4.4L8 13.4 2 8.9h7.6z"/></svg><h1 style="font-size:24px;margin:10px 0">${esc(t.app)} Pro</h1><p class="sub" style="margin-bottom:18px">Unlimited habits, widgets, insights and iCloud sync.</p>${[
        ['Yearly', '$29.99', 'Save 50%'],
        ['Monthly', '$4.99', ''],
      ]
        .map(
          ([p, v, s], i) =>
            `<div class="card" style="text-align:left;margin-bottom:10px;${i === 0 ? `border:2px solid ${t.accent}` : ''}"><b>${p}</b> ${s ? `<span class="pill ok">${s}</span>` : ''}<div style="font-size:20px;font-weight:700">${v}</div></div>`,
        )
        .join(
          '',
        )}<div class="btn" style="display:block;padding:13px;margin-top:8px">Start 7-day free trial</div><p class="sub" style="margin-top:10px">Restore purchases</p></div>`,
      `<div style="padding:22px"><h1 style="font-size:24px;margin:20px 0 14px">Settings</h1>${[
        'Reminders',
        'Appearance',
        'Widgets',
        'Export data',
        'Subscription',
        'Privacy policy',
      ]
        .map(
          (s, i) =>
            `<div style="display:flex;justify-content:space-between;padding:14px 4px;border-bottom:1px solid #e5e7eb"><span>${s}</span><span class="muted">${['8:00 AM', 'System', '3', '', 'Pro · yearly', ''][i]} ›</span></div>`,
        )
        .join('')}</div>`,
    ],
  };
  const frame = (inner: string) =>
    `<div style="width:300px;height:620px;border-radius:44px;background:#111827;padding:12px;box-shadow:0 30px 60px -20px rgba(0,0,0,.35)"><div style="width:100%;height:100%;border-radius:34px;overflow:hidden;background:#fff;position:relative"><div style="position:absolute;top:8px;left:50%;transform:translateX(-50%);width:90px;height:22px;border-radius:12px;background:#111827"></div><div style="height:100%;padding-top:34px">${inner}</div></div></div>`;
  return `<!doctype html><html><head><style>${css(t)}</style></head><body style="display:flex;gap:70px;justify-content:center;align-items:center;background:linear-gradient(135deg,${t.accent}40,#fdf2ec)">${screens[kind]!.map(frame).join('')}</body></html>`;
}
