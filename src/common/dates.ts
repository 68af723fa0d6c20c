/** A calendar day, `YYYY-MM-DD`, as content and the server write it. */
export const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** '2025-07-01' -> '1 July 2025', the same on every machine and in every time zone. */
export const longDate = (day: string) =>
  new Date(`${day}T12:00:00Z`).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
