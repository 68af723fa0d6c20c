import './contact-page.scss';
import { type ChangeEvent, type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { Field, SelectField } from '../../components/field.tsx';
import { Icon } from '../../components/icon.tsx';
import { SupportEmail } from '../../components/support-email.tsx';
import { useToast } from '../../components/toasts.tsx';
import { apiPost } from '../../lib/api.ts';
import { clientConfig } from '../../lib/initial-data.ts';
import { useScreenTitleAndPageView } from '../../lib/page-view.ts';
import {
  blankMessage,
  CONTACT_LIMITS,
  CONTACT_TOPICS,
  type ContactMessage,
  EMPTY_CONTACT,
  failedToast,
  sentToast,
  THANK_YOU,
} from './contact-form.ts';

/** POST /api/contact with {topic, name, email, message}; any non-2xx throws ApiError. */
function sendContactMessage(input: ContactMessage): Promise<unknown> {
  return apiPost('/api/contact', {
    topic: input.topic,
    name: input.name.trim(),
    email: input.email.trim(),
    message: input.message.trim(),
  });
}

/**
 * Topic, name, e-mail and message, checked by the browser (`required`, `type=email`). After a
 * submit the form is emptied whatever the outcome; a toast tells how it went, and a thank-you
 * alert stays on the page after a success.
 */
const TOPIC_OPTIONS = CONTACT_TOPICS.map((topic) => ({ value: topic, label: topic }));

function ContactForm() {
  const toast = useToast();
  const [values, setValues] = useState<ContactMessage>(EMPTY_CONTACT);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const confirmation = useRef<HTMLDivElement>(null);

  // On a phone the thank-you sits a screen above the button that was pressed: bring it into view.
  useEffect(() => {
    if (sent) confirmation.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [sent]);

  const change =
    (field: keyof ContactMessage) =>
    (event: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => {
      const { value } = event.target;
      if (field === 'name' || field === 'message') event.target.setCustomValidity(blankMessage(value));
      setValues((current) => ({ ...current, [field]: value }));
    };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setSent(false);
    try {
      await sendContactMessage(values);
      setSent(true);
      toast(sentToast());
    } catch {
      toast(failedToast(clientConfig.supportEmail));
    } finally {
      setValues(EMPTY_CONTACT);
      setBusy(false);
    }
  };

  return (
    <form className="contact-form" onSubmit={submit} aria-busy={busy}>
      {/* A live region present from the start, so screen readers announce the thank-you when it fills. */}
      <div ref={confirmation} className="contact-confirmation" aria-live="polite" aria-atomic="true">
        {sent && (
          <div className="alert alert-success" data-testid="contact-success">
            {THANK_YOU}
          </div>
        )}
      </div>
      <p className="form-text mt-0 mb-3">All fields are required.</p>
      <SelectField
        id="contact-topic"
        label="Topic"
        spacing="mb-3"
        required
        value={values.topic}
        onChange={change('topic')}
        none={
          <option value="" disabled>
            Choose a topic
          </option>
        }
        options={TOPIC_OPTIONS}
      />
      <div className="row g-3 mb-3">
        <Field
          id="contact-name"
          label="Name"
          spacing="col-12 col-md-6"
          type="text"
          required
          maxLength={CONTACT_LIMITS.name}
          autoComplete="name"
          value={values.name}
          onChange={(_, event) => change('name')(event)}
        />
        <Field
          id="contact-email"
          label="Email"
          spacing="col-12 col-md-6"
          type="email"
          required
          maxLength={CONTACT_LIMITS.email}
          autoComplete="email"
          placeholder="you@company.com"
          value={values.email}
          onChange={(_, event) => change('email')(event)}
        />
      </div>
      <div className="mb-4">
        <label htmlFor="contact-message" className="form-label">
          Message
        </label>
        <textarea
          id="contact-message"
          className="form-control"
          rows={7}
          required
          maxLength={CONTACT_LIMITS.message}
          aria-describedby="contact-message-help"
          value={values.message}
          onChange={change('message')}
        />
        <div id="contact-message-help" className="form-text d-flex justify-content-between gap-3">
          <span>For a bug, tell us the kit, its version, what you did and the error output.</span>
          <span className="contact-count" aria-hidden="true">
            {values.message.length} / {CONTACT_LIMITS.message}
          </span>
        </div>
      </div>
      <button type="submit" className="btn btn-primary btn-lg contact-submit" aria-disabled={busy || undefined}>
        {busy && <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />}
        Send Message
      </button>
    </form>
  );
}

const EXPECT = [
  'A reply within one business day, Monday to Friday, usually much sooner.',
  'An answer from a developer who knows the kits, not a script.',
  'For billing or refund questions, include your order id from the confirmation e-mail.',
  'For a bug, include the kit, its version, your operating system and the steps that lead to it.',
];

/** One page for /contact and /support: the form, the support address and what happens next. */
export function ContactPage() {
  const { pathname } = useLocation();
  const support = /^\/support\/?$/.test(pathname);
  useScreenTitleAndPageView(support ? '/support' : '/contact');
  return (
    <div className="contact-page">
      <header className="contact-hero">
        <div className="container">
          <p className="eyebrow">{support ? 'Help with your kits' : 'Get in touch'}</p>
          <h1 className="contact-title">{support ? 'Support' : 'Contact us'}</h1>
          <p className="contact-lead">
            {support
              ? 'Stuck setting up a kit, found a bug, or have a question about a purchase? Tell us what is going on and a developer will help you.'
              : 'Questions about a kit, its licence or an order? Send us a message and a developer who works on the kits will answer.'}
          </p>
        </div>
      </header>
      <div className="container contact-body">
        <div className="row g-4 g-lg-5">
          <div className="col-12 col-lg-7">
            <div className="card contact-card">
              <div className="card-body">
                <h2 className="h4 fw-bold mb-1">Send us a message</h2>
                <p className="text-body-secondary">We answer every message in person.</p>
                <ContactForm />
              </div>
            </div>
          </div>
          <aside className="col-12 col-lg-5 contact-aside">
            <div className="contact-box">
              <h2 className="h6">Prefer e-mail?</h2>
              <p>Write to us directly at</p>
              <SupportEmail className="contact-email" iconSize={20} />
            </div>
            <div className="contact-box">
              <h2 className="h6">What to expect</h2>
              <ul className="list-unstyled contact-expect">
                {EXPECT.map((item) => (
                  <li key={item}>
                    <Icon name="check" size={18} />
                    <span>{item}</span>
                  </li>
                ))}
              </ul>
            </div>
            <div className="contact-box">
              <h2 className="h6">Quick answers</h2>
              <ul className="list-unstyled contact-links">
                <li>
                  <Link to="/user-panel">Your user panel</Link>: downloads, setup guides and licences of your kits.
                </li>
                <li>
                  <Link to="/#kits">Kits</Link>: each kit's page links to its documentation and live demo.
                </li>
                <li>
                  <Link to="/refund-policy">Refund Policy</Link>: when and how a purchase can be refunded.
                </li>
                <li>
                  <Link to="/terms-and-conditions">Terms and Conditions</Link>: the licence and the rest of the fine
                  print.
                </li>
              </ul>
            </div>
          </aside>
        </div>
      </div>
    </div>
  );
}
