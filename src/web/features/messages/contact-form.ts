import type { ToastInput } from '../../components/toasts.tsx';

export { CONTACT_TOPICS, FIELD_LIMITS as CONTACT_LIMITS } from '../../../common/constants.ts';

export type ContactMessage = { topic: string; name: string; email: string; message: string };

export const EMPTY_CONTACT: ContactMessage = { topic: '', name: '', email: '', message: '' };

/** The thank-you alert shown on the page after a message went through. */
export const THANK_YOU = "Thank you for reaching out! We'll get back to you shortly.";

export const sentToast = (): ToastInput => ({
  title: 'Message sent',
  body: "Your message was sent successfully. We'll get back to you shortly.",
  variant: 'success',
});

export const failedToast = (supportEmail: string): ToastInput => ({
  title: 'Error sending message',
  body: `Your message could not be delivered. Please try again later or e-mail ${supportEmail}.`,
  variant: 'danger',
});

/** Browsers accept a required field holding only spaces: such a value gets its own validity message. */
export const blankMessage = (value: string) =>
  value.length > 0 && value.trim() === '' ? 'Please fill out this field.' : '';
