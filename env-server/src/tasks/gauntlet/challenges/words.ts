/** Word lists the challenges draw names, labels and decoys from (seeded picks only). */
export const WORDS = [
  'Amber', 'Aspen', 'Birch', 'Breeze', 'Cedar', 'Cobalt', 'Comet', 'Coral', 'Delta', 'Ember', 'Falcon', 'Fern',
  'Flint', 'Frost', 'Garnet', 'Harbor', 'Hazel', 'Indigo', 'Iris', 'Jasper', 'Juniper', 'Lagoon', 'Lantern', 'Lotus',
  'Maple', 'Marble', 'Meadow', 'Nova', 'Onyx', 'Orchid', 'Pebble', 'Pine', 'Quartz', 'Raven', 'Ridge', 'Saffron',
  'Sage', 'Sierra', 'Slate', 'Sparrow', 'Summit', 'Thistle', 'Tundra', 'Velvet', 'Willow', 'Zephyr',
] as const;

export const FIRST_NAMES = ['Ada', 'Boris', 'Cara', 'Dario', 'Elin', 'Felix', 'Hana', 'Ines', 'Joel', 'Kira', 'Lena', 'Malik', 'Nadia', 'Omar', 'Petra', 'Quinn', 'Rosa', 'Sami', 'Tessa', 'Viktor'] as const;
export const LAST_NAMES = ['Byron', 'Castell', 'Dumont', 'Eriksen', 'Ferreira', 'Greco', 'Halvorsen', 'Ito', 'Jansen', 'Kowalski', 'Laurent', 'Moreau', 'Novak', 'Okafor', 'Petrov', 'Quispe', 'Rossi', 'Sato'] as const;

/** Quoted the way instructions quote every value an agent must type or click. */
export function quoted(items: readonly string[]): string {
  return items.map((item) => `"${item}"`).join(', ');
}
