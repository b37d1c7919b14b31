// A game's printed components (cards, nobles, royals) from the server's
// read-only GET /api/components/<env id>: a view names cards by id only.
const cache = new Map();

export function components(env) {
  if (!cache.has(env)) {
    cache.set(env, fetch(`/api/components/${encodeURIComponent(env)}`).then((response) => {
      if (!response.ok) throw new Error(`GET /api/components/${env}: ${response.status}`);
      return response.json();
    }));
  }
  return cache.get(env);
}

// byId indexes a component list by its `id` field.
export function byId(list = []) {
  return new Map(list.map((item) => [item.id, item]));
}
