import { db, schema } from './index';

async function main() {
  const [team] = await db
    .insert(schema.teams)
    .values({ name: 'Demo Team', slug: 'demo-team' })
    .onConflictDoNothing()
    .returning();
  if (!team) {
    console.log('Demo team already exists, nothing to do.');
    return;
  }

  const people = [
    { name: 'Dana Owner', email: 'dana@example.com', role: 'owner' as const },
    { name: 'Ravi Admin', email: 'ravi@example.com', role: 'admin' as const },
    { name: 'Mia Member', email: 'mia@example.com', role: 'member' as const },
  ];
  for (const person of people) {
    const [user] = await db.insert(schema.users).values({ name: person.name, email: person.email }).returning();
    await db.insert(schema.memberships).values({ teamId: team.id, userId: user.id, role: person.role });
  }
  console.log(`Seeded team ${team.slug} with ${people.length} members.`);
}

main()
  .then(() => process.exit(0))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
