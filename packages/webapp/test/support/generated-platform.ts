import { defineEndpoint, defineEvent, definePlatform, type Platform } from '@nimbus/core';
import { z } from 'zod';

const TIERS = ['Channel', 'Order', 'Fulfilment', 'Finance', 'Reporting'] as const;
const SUBJECTS = ['Customer', 'Order', 'Invoice', 'Shipment', 'Payment', 'Stock', 'Price', 'Return'] as const;

/**
 * A platform of 20 endpoints the way integration platforms grow: five tiers of four (channels → orders →
 * fulfilment → finance → reporting). Each endpoint of the first four tiers publishes two event types, each
 * consumed by two or three endpoints of the next tiers; each reporting endpoint publishes one status event
 * back to an order endpoint, so the graph has cycles too. A fixed pattern: every run lays out the same graph.
 */
export function generatedPlatform(): Platform {
  const names = TIERS.flatMap((tier) => [1, 2, 3, 4].map((n) => `${tier}${n}`));
  const event = (id: string) => defineEvent(id, { schema: z.object({ id: z.string() }), sessionKey: 'id' });
  type Event = ReturnType<typeof event>;
  const produces = new Map(names.map((name) => [name, [] as Event[]]));
  const consumes = new Map(names.map((name) => [name, [] as Event[]]));
  let count = 0;
  names.forEach((producer, index) => {
    const tier = Math.floor(index / 4);
    if (tier === TIERS.length - 1) {
      const status = event(`${producer}StatusReported`);
      produces.get(producer)!.push(status);
      consumes.get(names[4 + (index % 4)]!)!.push(status);
      return;
    }
    for (const variant of [0, 1]) {
      const type = event(
        `${SUBJECTS[count % SUBJECTS.length]}${variant === 0 ? 'Changed' : 'Approved'}${++count}`,
      );
      produces.get(producer)!.push(type);
      const consumerCount = 2 + ((index + variant) % 2);
      for (let k = 0; k < consumerCount; k++) {
        const targetTier = Math.min(TIERS.length - 1, tier + 1 + (k % 2));
        consumes.get(names[targetTier * 4 + ((index + k + variant) % 4)]!)!.push(type);
      }
    }
  });
  return definePlatform(
    names.map((name) =>
      defineEndpoint(name, { produces: produces.get(name)!, consumes: consumes.get(name)! }),
    ),
  );
}
