(window.memgitSearch = window.memgitSearch || []).push([]);
