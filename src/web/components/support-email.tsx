import { clientConfig } from '../lib/initial-data.ts';
import { Icon } from './icon.tsx';

/** The shop's support address as a mailto link (from the server's configuration, never hard-coded). */
export function SupportEmail({ className, iconSize }: { className?: string; iconSize?: number }) {
  const email = clientConfig.supportEmail;
  return (
    <a href={`mailto:${email}`} className={className}>
      {iconSize ? (
        <>
          <Icon name="mail" size={iconSize} /> {email}
        </>
      ) : (
        email
      )}
    </a>
  );
}
