#!/usr/bin/env python3
"""An API behind Gatehouse, written with Authlib (Debian: python3-authlib python3-requests) as its documentation
shows: a ResourceProtector whose IntrospectTokenValidator asks Gatehouse's introspection endpoint (RFC 7662) about
each request's Bearer token, authenticated as a registered resource server with client_secret_basic.
e2e/protocol/authlib-introspection.test.ts runs it.

Authlib checks `active` and the scope; the audience is the API's own check (RFC 9068 §4, RFC 8707): a token for
another API is refused as invalid_token, as a token Gatehouse says is inactive.

    INTROSPECTION_CLIENT_SECRET=... authlib-resource-server.py <introspection endpoint> <client id> <audience> <scope>

Listens on 127.0.0.1 on a free port and prints `listening <port>` once ready. GET /api with a Bearer token answers
200 with what introspection said (sub, client_id, scope, aud), or the RFC 6750 error with its status.
"""
import json
import os
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from authlib.integrations.requests_client import OAuth2Session
from authlib.oauth2 import OAuth2Error, ResourceProtector
from authlib.oauth2.rfc6749 import HttpRequest
from authlib.oauth2.rfc6750 import InvalidTokenError
from authlib.oauth2.rfc7662 import IntrospectTokenValidator

endpoint, client_id, audience, scope = sys.argv[1:5]
if endpoint.startswith('http://'):
    # The tests' issuer is plain http on the loopback; Authlib refuses that unless told.
    os.environ['AUTHLIB_INSECURE_TRANSPORT'] = '1'


class GatehouseIntrospection(IntrospectTokenValidator):
    def __init__(self):
        super().__init__()
        self.session = OAuth2Session(
            client_id, os.environ['INTROSPECTION_CLIENT_SECRET'], revocation_endpoint_auth_method='client_secret_basic'
        )

    def introspect_token(self, token_string):
        response = self.session.introspect_token(endpoint, token=token_string, token_type_hint='access_token')
        response.raise_for_status()
        return response.json()

    def validate_token(self, token, scopes, request):
        # The audience first: a token for another API is no token here (invalid_token), whatever its scope.
        aud = token.get('aud') if token else None
        if token and token.get('active') and audience not in (aud if isinstance(aud, list) else [aud]):
            raise InvalidTokenError(description='the token is for another API')
        super().validate_token(token, scopes, request)


require_oauth = ResourceProtector()
require_oauth.register_token_validator(GatehouseIntrospection())


class Api(BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path != '/api':
            return self.answer(404, {'error': 'not_found'})
        # self.headers looks names up without case (a dict would miss the `authorization` fetch sends).
        request = HttpRequest('GET', f'http://127.0.0.1{self.path}', headers=self.headers)
        try:
            token = require_oauth.validate_request([scope], request)
        except OAuth2Error as error:
            return self.answer(error.status_code or 401, {'error': error.error})
        self.answer(200, {name: token.get(name) for name in ('sub', 'client_id', 'scope', 'aud', 'token_type')})

    def answer(self, status, body):
        payload = json.dumps(body).encode()
        self.send_response(status)
        self.send_header('content-type', 'application/json')
        self.send_header('content-length', str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(('127.0.0.1', 0), Api)
print(f'listening {server.server_address[1]}', flush=True)
server.serve_forever()
