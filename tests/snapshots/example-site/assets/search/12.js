(window.memgitSearch = window.memgitSearch || []).push(JSON.parse('{"files":[],"docs":[],"len":[],"keys":[],"post":[]}'));
