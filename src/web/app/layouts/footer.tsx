import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { FOOTER_YEAR } from '../../../common/constants.ts';
import { SITE_NAME } from '../../../common/site.ts';
import { Icon } from '../../components/icon.tsx';
import { SupportEmail } from '../../components/support-email.tsx';
import { useToast } from '../../components/toasts.tsx';
import { apiPost } from '../../lib/api.ts';
import { setConsentBannerOpen } from '../../lib/consent.ts';
import { appUrl, clientConfig } from '../../lib/initial-data.ts';

const SOCIAL = [
  { name: 'GitHub', icon: 'github', href: 'https://github.com/kitshop' },
  { name: 'X', icon: 'x', href: 'https://x.com/kitshop' },
  { name: 'LinkedIn', icon: 'linkedin', href: 'https://www.linkedin.com/company/kitshop' },
  { name: 'YouTube', icon: 'youtube', href: 'https://www.youtube.com/@kitshop' },
];

/** The link columns: [label, path]; a path without a leading slash is served outside the shop (the blog). */
const LINKS: [string, [string, string][]][] = [
  [
    'Company',
    [
      ['About', '/about'],
      ['Contact', '/contact'],
      ['Blog', 'blog'],
    ],
  ],
  [
    'Legal',
    [
      ['Terms and Conditions', '/terms-and-conditions'],
      ['Privacy Policy', '/privacy-policy'],
      ['Cookie Policy', '/cookie-policy'],
      ['Refund Policy', '/refund-policy'],
    ],
  ],
];

function Newsletter() {
  const toast = useToast();
  const [email, setEmail] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!email) return;
    try {
      await apiPost('/api/subscribe', { email });
      setEmail('');
      toast({ title: 'Subscription Successfull', body: 'You have been registered to our email bulletin' });
    } catch {
      toast({ title: 'Subscription Failed', body: 'Error subscribing bulletin', variant: 'danger' });
    }
  };
  return (
    <form className="newsletter" onSubmit={submit}>
      <label htmlFor="newsletter-email" className="form-label">
        Email
      </label>
      <div className="input-group">
        <input
          id="newsletter-email"
          type="email"
          required
          className="form-control"
          placeholder="you@company.com"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <button type="submit" className="btn btn-primary">
          Subscribe
        </button>
      </div>
      <p className="form-text">New kits and major updates, about once a month.</p>
    </form>
  );
}

export function Footer() {
  return (
    <footer className="site-footer">
      <div className="container">
        <div className="row g-4">
          <div className="col-12 col-lg-4">
            <p className="footer-brand">{SITE_NAME}</p>
            <p className="footer-muted">
              Production-ready starter kits for developers: full source, docs, setup guides and a live demo for every
              kit.
            </p>
            <p>
              <SupportEmail className="footer-email" iconSize={18} />
            </p>
            <ul className="social list-unstyled d-flex gap-2">
              {SOCIAL.map((s) => (
                <li key={s.name}>
                  <a href={s.href} aria-label={s.name} rel="noopener noreferrer" target="_blank">
                    <Icon name={s.icon} size={20} />
                  </a>
                </li>
              ))}
            </ul>
          </div>
          {LINKS.map(([heading, links]) => (
            <nav className="col-6 col-lg-2" aria-label={heading} key={heading}>
              <p className="footer-heading">{heading}</p>
              <ul className="list-unstyled footer-links">
                {links.map(([label, to]) => (
                  <li key={to}>
                    {to.startsWith('/') ? <Link to={to}>{label}</Link> : <a href={appUrl(to)}>{label}</a>}
                  </li>
                ))}
                {heading === 'Legal' && clientConfig.gaMeasurementId && (
                  <li>
                    <button
                      type="button"
                      className="btn btn-link footer-settings"
                      onClick={() => setConsentBannerOpen(true, true)}
                    >
                      Cookie Settings
                    </button>
                  </li>
                )}
              </ul>
            </nav>
          ))}
          <div className="col-12 col-lg-4">
            <p className="footer-heading">Newsletter</p>
            <Newsletter />
          </div>
        </div>
        <p className="copyright">
          © {FOOTER_YEAR} {SITE_NAME}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
